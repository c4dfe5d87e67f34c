// Chess clocks for a game: a time control ("5+3"), each side's time left, the increment, the flag. It touches
// no DOM and reads time from a source it is given, so Node's tests drive it with a fake one.
//
// The clock of the side to move runs from the first move on (White's first move takes no time); a move charges
// its side the time it took and adds the increment (Fischer). Undoing a move keeps the times (see the README).

/** The presets offered in the settings, as `clock` attribute values. */
export const CLOCK_PRESETS = ["3+2", "5+3", "10+5", "15+10"];

/**
 * A time control "MINUTES+SECONDS" (minutes may be fractional: "0.5+0"; "5" is "5+0").
 * @param {string} text
 * @returns {{value: {baseMs: number, incMs: number}} | {error: string}}
 */
export function parseClock(text) {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$/.exec(String(text));
  const minutes = match ? Number(match[1]) : NaN;
  const seconds = match?.[2] ? Number(match[2]) : 0;
  if (!(minutes > 0 && minutes <= 600 && seconds <= 600)) {
    return { error: `clock="${text}": write minutes and an increment in seconds, such as 5+3 or 0.5+0 (up to 600+600)` };
  }
  return { value: { baseMs: Math.round(minutes * 60_000), incMs: Math.round(seconds * 1000) } };
}

/**
 * The time control of a `clock` setting ("5+3"), or null for none ("" or a text that does not read).
 * @param {string} text
 */
export function clockControl(text) {
  return text ? (parseClock(text).value ?? null) : null;
}

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

/** The two clocks of one game. */
export class ChessClock {
  /**
   * @param {{baseMs: number, incMs: number}} control
   * @param {() => number} [now] milliseconds from any fixed origin
   */
  constructor({ baseMs, incMs }, now = () => performance.now()) {
    this.baseMs = baseMs;
    this.incMs = incMs;
    this.now = now;
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
    if (!color) return;
    this.running = color;
    this.since = this.now();
  }

  /** Stops the running clock, charging its side for the time it ran. */
  stop() {
    if (!this.running) return;
    this.left[this.running] = this.timeLeft(this.running);
    this.running = null;
  }

  /**
   * `color` finished a move: charges it, adds the increment and starts the opponent's clock (unless `over`).
   * @param {"w" | "b"} color
   * @param {boolean} [over] the move ended the game: both clocks stop
   */
  moved(color, over = false) {
    this.stop();
    this.left[color] += this.incMs;
    if (!over) this.run(color === "w" ? "b" : "w");
  }

  /**
   * Whether `color` is short of time: under a tenth of the starting time, and at most 20 seconds.
   * @param {"w" | "b"} color
   */
  isLow(color) {
    return this.timeLeft(color) < Math.min(20_000, this.baseMs / 10);
  }
}
