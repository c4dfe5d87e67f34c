// The thinking panel: the applet's "Considering …" line, depth, nodes, speed, time and principal variation.

import { formatCompact, formatScore } from "./score-format.js";

/**
 * Lines that stand in until there is something to say (a search starting, the player loading): the view puts the
 * resting line in their place once no search runs.
 */
export const STAND_INS = {
  thinking: "Thinking…",
  loading: "Loading the player…",
  slow: "Still loading the rules module (pkg/homeostat_rules_bg.wasm): the network is slow. The board plays as soon as it arrives.",
};

/** Shows the engine's progress; repaints at most once per animation frame. */
export class ThinkingPanel {
  /** @param {HTMLElement} root the panel, holding elements with data-field names */
  constructor(root) {
    this.root = root;
    this.fields = Object.fromEntries([...root.querySelectorAll("[data-field]")].map((el) => [el.dataset.field, el]));
    this.pending = null;
    this.frame = 0;
  }

  /**
   * Shows the latest merged progress (see the element's `thinking` event detail).
   * @param {object} info
   */
  show(info) {
    this.pending = info;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.paint());
  }

  /**
   * Paints what is pending now rather than at the next frame: a search's last figures must stand when it ends, even
   * where the browser delays frames (WebKit under a virtual display ran no frame during a one-second search).
   */
  flush() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.paint();
  }

  /** Writes the pending progress into the panel. */
  paint() {
    this.frame = 0;
    const info = this.pending;
    if (!info) return;
    const f = this.fields;
    f.line.textContent = info.text || STAND_INS.thinking;
    f.depth.textContent = info.depth ? `${info.depth}${info.seldepth ? `/${info.seldepth}` : ""}` : "–";
    f.nodes.textContent = info.nodes ? formatCompact(info.nodes) : "–";
    f.nps.textContent = info.nps ? `${formatCompact(info.nps)}/s` : "–";
    f.time.textContent = info.elapsedMs !== undefined ? `${(info.elapsedMs / 1000).toFixed(1)} s` : "–";
    f.score.textContent = formatScore(info.scoreWhite);
    f.pv.textContent = Array.isArray(info.pv) ? info.pv.join(" ") : info.pv || "";
  }

  /**
   * Sets the panel's heading state: "thinking", "analysing", "book", "memory" or "idle", with a caption.
   * @param {string} mode
   * @param {string} caption
   */
  setMode(mode, caption) {
    this.root.dataset.mode = mode;
    this.fields.mode.textContent = caption;
  }

  /** Empties the figures but keeps the last line visible. */
  reset() {
    this.pending = null;
    for (const name of ["depth", "nodes", "nps", "time", "score"]) this.fields[name].textContent = "–";
    this.fields.pv.textContent = "";
  }
}
