// Stepping back through a player's game read-only: which ply is shown, and going back to the live game. The
// controller is told while a view is open (it holds back play); the view redraws through the element's screen.

/** The read-only history viewer of one `<homeostat-chess>` element. */
export class HistoryView {
  /** @param {import("../homeostat-chess.js").HomeostatChess} host */
  constructor(host) {
    this.host = host;
    /** Ply shown read-only, or null for the live game. */
    this.ply = null;
  }

  /** Shows the position after `ply` moves read-only; the last ply goes back to the game. */
  view(ply) {
    const el = this.host;
    if (!el.game) return;
    if (ply >= el.game.ply()) return this.live();
    this.ply = Math.max(0, ply);
    el.controller.setViewing(true);
    el.board.setArrows([]);
    el.screen.refresh(true);
  }

  /** Back to the live game from a read-only view. */
  live() {
    if (this.ply === null) return;
    this.ply = null;
    this.host.screen.refresh(true);
    this.host.controller.setViewing(false);
  }

  /** Steps through the history ("first", "prev", "next", "last") and says which move is shown. */
  step(action) {
    const el = this.host;
    const last = el.game.ply();
    const shown = this.ply ?? last;
    this.view(Math.max(0, Math.min(last, { first: 0, prev: shown - 1, next: shown + 1, last }[action])));
    const ply = this.ply ?? last;
    const blackFirst = el.game.startFen().split(" ")[1] === "b";
    const mover = (ply % 2 === 1) !== blackFirst ? "White" : "Black";
    el.screen.announce(ply === 0 ? "Start position" : `${mover} played ${el.game.historySan()[ply - 1]} (move ${ply} of ${last})`);
  }
}
