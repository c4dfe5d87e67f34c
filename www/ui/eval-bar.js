// The evaluation bar: White's share of the position, from White's view, set through a CSS custom property.

import { formatScore, whiteShare } from "./score-format.js";

/** A bar whose white part grows with White's advantage. */
export class EvalBar {
  /** @param {HTMLElement} element the bar; its CSS reads `--white-share` (0–1) */
  constructor(element) {
    this.element = element;
    this.label = element.querySelector(".evalbar-label");
    this.set(null);
  }

  /**
   * Shows a White-view score, or an even bar for null.
   * @param {{cp?: number, mate?: number} | null} scoreWhite
   */
  set(scoreWhite) {
    const share = whiteShare(scoreWhite);
    this.element.style.setProperty("--white-share", share.toFixed(4));
    this.element.dataset.side = share >= 0.5 ? "white" : "black";
    const text = scoreWhite ? formatScore(scoreWhite) : "";
    if (this.label) this.label.textContent = text;
    this.element.title = scoreWhite ? `Evaluation (White's view): ${text}` : "Evaluation";
  }

  /** A book move: the last searched evaluation stays; with none yet, the bar says "book" instead of 0.00. */
  book(lastScore) {
    this.set(lastScore);
    if (!lastScore && this.label) {
      this.label.textContent = "book";
      this.element.title = "Evaluation: the engine is still in its opening book";
    }
  }
}
