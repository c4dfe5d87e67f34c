// Chess clocks for a game: each side's time left, the increment, the flag. It touches no DOM and reads time from a
// source it is given, so Node's tests drive it with a fake one. Loaded on demand, when a game has a time control
// (the control's text is read by game/settings.js).
//
// The clock of the side to move runs from the first move on (White's first move takes no time); a move charges
// its side the time it took and adds the increment (Fischer). Undoing a move keeps the times (see the README).

/**
 * Clock time as people read it: "5:00", "1:02:03", and tenths under ten seconds ("0:09.4").
 * @param {number} ms
 */
export function formatClock(ms) {
  const left = Math.max(0, ms);
  if (left < 10_000) return `0:0${Math.floor(left / 1000)}.${Math.floor(left / 100) % 10}`;
  const total = Math.ceil(left / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

/**
 * What a clock tells its owner.
 * @typedef {object} ClockHooks
 * @property {(color: "w" | "b") => void} [onFlag] a running clock reached zero (a timer wakes for it)
 * @property {() => void} [onChange] a clock started or stopped
 */

/** The two clocks of one game. */
export class ChessClock {
  /**
   * @param {{baseMs: number, incMs: number}} control
   * @param {() => number} [now] milliseconds from any fixed origin
   * @param {ClockHooks} [hooks]
   */
  constructor({ baseMs, incMs }, now = () => performance.now(), hooks = {}) {
    this.baseMs = baseMs;
    this.incMs = incMs;
    this.now = now;
    this.hooks = hooks;
    this.timer = undefined;
    /** Time left by side when last charged. */
    this.left = { w: baseMs, b: baseMs };
    /** The side whose clock runs, or null. */
    this.running = null;
    this.since = 0;
  }

  /**
   * Time left for `color` ("w" or "b") now, never below zero.
   * @param {"w" | "b"} color
   */
  timeLeft(color) {
    const spent = this.running === color ? this.now() - this.since : 0;
    return Math.max(0, this.left[color] - spent);
  }

  /** The side whose time has run out, or null. */
  flagged() {
    for (const color of /** @type {const} */ (["w", "b"])) if (this.timeLeft(color) <= 0) return color;
    return null;
  }

  /** Milliseconds until the running side's time runs out (Infinity when no clock runs). */
  msToFlag() {
    return this.running ? this.timeLeft(this.running) : Infinity;
  }

  /**
   * Starts `color`'s clock (stopping the other's), or stops both with null.
   * @param {"w" | "b" | null} color
   */
  run(color) {
    this.stop();
    if (color) {
      this.running = color;
      this.since = this.now();
    }
    this.arm();
  }

  /** Stops the running clock, charging its side for the time it ran. */
  stop() {
    clearTimeout(this.timer);
    if (!this.running) return;
    this.left[this.running] = this.timeLeft(this.running);
    this.running = null;
  }

  /** Tells the owner of the change, and wakes when the running clock would reach zero. */
  arm() {
    clearTimeout(this.timer);
    this.hooks.onChange?.();
    if (!this.running || !this.hooks.onFlag) return;
    this.timer = setTimeout(() => {
      const color = this.flagged();
      if (!color) return this.arm();
      this.stop();
      this.hooks.onFlag?.(color);
    }, this.msToFlag() + 1);
  }

  /** The clocks as a search request's UCI-style fields (wtime, btime, winc, binc in milliseconds). */
  limits() {
    const [w, b] = [Math.round(this.timeLeft("w")), Math.round(this.timeLeft("b"))];
    return { wtimeMs: w, btimeMs: b, wincMs: this.incMs, bincMs: this.incMs };
  }

  /**
   * `color` finished a move: charges it, adds the increment and starts the opponent's clock (unless `over`).
   * @param {"w" | "b"} color
   * @param {boolean} [over] the move ended the game: both clocks stop
   */
  moved(color, over = false) {
    this.stop();
    this.left[color] += this.incMs;
    this.run(over ? null : color === "w" ? "b" : "w");
  }

  /**
   * Whether `color` is short of time: under a tenth of the starting time, and at most 20 seconds.
   * @param {"w" | "b"} color
   */
  isLow(color) {
    return this.timeLeft(color) < Math.min(20_000, this.baseMs / 10);
  }
}
