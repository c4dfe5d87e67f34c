// The clocks beside the board's players: their times, ticking while one runs, the low-time warning (shown, and
// announced once per side and game for the person's clocks), and which one runs. Loaded with extras/clock.js.

import { formatClock } from "./clock.js";

export { ChessClock } from "./clock.js";

/** Shows one element's clocks in its player bars. */
export class ClockView {
  /** @param {any} host the player element */
  constructor(host) {
    this.host = host;
    this.timer = 0;
    /** Sides already warned of low time in this game's clocks. */
    this.warned = new Set();
    this.clock = null;
  }

  /** Redraws the clocks; ticks while one runs. */
  render() {
    const el = this.host;
    const c = el.controller;
    const clock = c?.clock ?? null;
    if (clock !== this.clock) this.warned.clear();
    this.clock = clock;
    clearInterval(this.timer);
    for (const where of ["top", "bottom"]) {
      const field = el.fields[`${where}-clock`];
      field.hidden = !clock;
      if (!clock) continue;
      const color = where === "bottom" ? el.settings.orientation[0] : el.settings.orientation === "white" ? "b" : "w";
      const left = clock.timeLeft(color);
      field.textContent = formatClock(left);
      field.dataset.running = String(clock.running === color);
      field.dataset.low = String(clock.isLow(color));
      field.setAttribute("aria-label", `${color === "w" ? "White" : "Black"}'s clock: ${formatClock(left)}`);
      const person = c.options.player === "both" || c.options.player[0] === color;
      if (clock.isLow(color) && left > 0 && person && !this.warned.has(color) && clock.running === color) {
        this.warned.add(color);
        el.screen.announce(`Low time: ${Math.ceil(left / 1000)} seconds left`);
      }
    }
    if (clock?.running) this.timer = setInterval(() => this.render(), clock.timeLeft(clock.running) < 10_000 ? 100 : 250);
  }

  /** Stops ticking (the element left the page). */
  stop() {
    clearInterval(this.timer);
  }
}
