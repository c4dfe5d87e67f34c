// Paces a search's progress events over a least think time, so that a search the level's depth cap ends in
// milliseconds is still seen: its real events are shown one after another until the time is up, then its move.

/** How often queued events are let through, in milliseconds. */
const TICK_MS = 25;

/** Passes progress events and the result on, spread over at least `minMs` from the start. */
export class Pacer {
  /**
   * @param {number} minMs least time from start to result; 0 passes everything on at once
   * @param {(event: object) => void} onEvent
   * @param {{now?: () => number}} [clock]
   */
  constructor(minMs, onEvent, { now = () => Date.now() } = {}) {
    this.now = now;
    this.start = now();
    this.deadline = this.start + Math.max(0, minMs);
    this.paced = minMs > 0;
    this.onEvent = onEvent;
    /** @type {object[]} */
    this.queue = [];
    /** @type {(() => void) | null} */
    this.finish = null;
    this.timer = 0;
    this.cancelled = false;
  }

  /** A progress event from the engine. */
  push(event) {
    if (this.cancelled) return;
    if (!this.paced) return this.onEvent(event);
    this.queue.push(event);
    this.schedule();
  }

  /**
   * The search ended: `apply` runs once every queued event is shown and the least time has passed.
   * @param {() => void} apply
   */
  done(apply) {
    if (this.cancelled) return;
    if (!this.paced) return apply();
    this.finish = apply;
    this.schedule();
  }

  /** Lowers the least time to `ms` from the start (a book move needs no long think). */
  shorten(ms) {
    this.deadline = Math.min(this.deadline, this.start + ms);
  }

  /** Drops everything still queued; nothing more is passed on. */
  cancel() {
    this.cancelled = true;
    clearTimeout(this.timer);
    this.timer = 0;
    this.queue = [];
    this.finish = null;
  }

  schedule() {
    if (!this.timer) this.timer = setTimeout(() => this.tick(), TICK_MS);
  }

  /** Lets through the share of the queue that is due, evenly over the time left. */
  tick() {
    this.timer = 0;
    if (this.cancelled) return;
    const left = this.deadline - this.now();
    const ticksLeft = Math.max(1, Math.floor(left / TICK_MS));
    const count = Math.ceil(this.queue.length / ticksLeft);
    for (const event of this.queue.splice(0, count)) this.onEvent(event);
    if (this.queue.length || (this.finish && left > 0)) return this.schedule();
    const finish = this.finish;
    this.finish = null;
    finish?.();
  }
}
