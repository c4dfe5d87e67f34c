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
}
