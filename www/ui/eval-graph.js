// The evaluation graph: White-view scores over the game's plies, drawn on a canvas.

import { graphPawns } from "./score-format.js";

/** Draws a filled area chart of the scores, ±10 pawns, centred on equality. */
export class EvalGraph {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(ply: number) => void} onSelect called with a ply when the graph is clicked
   */
  constructor(canvas, onSelect) {
    this.canvas = canvas;
    this.points = [];
    this.current = -1;
    /** Plies marked by a review, with their colours: `{ply, color}`. */
    this.marks = [];
    canvas.addEventListener("click", (event) => {
      if (this.points.length < 2) return;
      const rect = canvas.getBoundingClientRect();
      const ply = Math.round(((event.clientX - rect.left) / rect.width) * (this.points.length - 1));
      onSelect(ply);
    });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /**
   * Sets the scores by ply (index 0 = start position; null where unknown) and redraws.
   * @param {({cp?: number, mate?: number} | null)[]} scores
   * @param {number} current highlighted ply
   */
  set(scores, current) {
    this.points = scores.map(graphPawns);
    this.current = current;
    this.draw();
  }

  /** Draws the graph at the canvas's current size. */
  draw() {
    const { canvas } = this;
    const rect = canvas.getBoundingClientRect();
    if (!rect.width) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(rect.width * dpr);
    canvas.height = Math.round(rect.height * dpr);
    const ctx = canvas.getContext("2d");
    const w = canvas.width;
    const h = canvas.height;
    const styles = getComputedStyle(canvas);
    const dark = styles.getPropertyValue("--graph-black").trim() || "#3a3733";
    const light = styles.getPropertyValue("--graph-white").trim() || "#f2f0eb";
    const line = styles.getPropertyValue("--graph-line").trim() || "#b58863";
    ctx.fillStyle = dark;
    ctx.fillRect(0, 0, w, h);
    // Carry unknown scores forward so the area stays continuous.
    const values = [];
    let last = 0;
    for (const v of this.points) values.push((last = v ?? last));
    if (values.length < 2) return;
    const x = (i) => (i / (values.length - 1)) * w;
    const y = (v) => h / 2 - (v / 10) * (h / 2 - 2 * dpr);
    ctx.beginPath();
    ctx.moveTo(0, h);
    values.forEach((v, i) => ctx.lineTo(x(i), y(v)));
    ctx.lineTo(w, h);
    ctx.closePath();
    ctx.fillStyle = light;
    ctx.fill();
    ctx.strokeStyle = "rgba(128, 128, 128, 0.6)";
    ctx.lineWidth = dpr;
    ctx.beginPath();
    ctx.moveTo(0, h / 2);
    ctx.lineTo(w, h / 2);
    ctx.stroke();
    ctx.strokeStyle = line;
    ctx.lineWidth = 1.5 * dpr;
    ctx.beginPath();
    values.forEach((v, i) => (i ? ctx.lineTo(x(i), y(v)) : ctx.moveTo(x(i), y(v))));
    ctx.stroke();
    for (const { ply, color } of this.marks) {
      if (ply >= values.length) continue;
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(x(ply), y(values[ply]), 3 * dpr, 0, Math.PI * 2);
      ctx.fill();
    }
    if (this.current >= 0 && this.current < values.length) {
      ctx.fillStyle = line;
      ctx.beginPath();
      ctx.arc(x(this.current), y(values[this.current]), 3.5 * dpr, 0, Math.PI * 2);
      ctx.fill();
    }
  }
}
