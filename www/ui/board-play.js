// The human's play on a player element: when they may move, what they may pick up and where it may go, the
// promotion chooser, and moves typed in the move box. Moves go to the element's controller; the board changes
// only through its API.

import { squareIndex } from "../board/board-state.js";
import { attachBoardInput } from "../board/board-input.js";
import { attachBoardKeys } from "../board/board-keys.js";

/** The board input policy of one `<homeostat-chess>` element. */
export class BoardPlay {
  /** @param {import("../homeostat-chess.js").HomeostatChess} host */
  constructor(host) {
    this.host = host;
  }

  /** Wires pointer and keyboard input on the board's renderer to this policy. */
  attach(renderer) {
    const el = this.host;
    const hooks = {
      canSelect: (square) => this.canSelect(square),
      targetsFor: (square) => this.targetsFor(square),
      onMove: (from, to, keyboard) => this.onBoardMove(from, to, keyboard),
      onPromotion: (piece) => this.onPromotion(piece),
      enabled: () => !el.readonly,
      announce: (text) => el.screen.announce(text),
    };
    attachBoardInput(renderer, hooks);
    attachBoardKeys(renderer, { ...hooks, onMove: (from, to) => this.onBoardMove(from, to, true) });
  }

  /** Whether the human may move now on the live board. */
  canMoveNow() {
    const el = this.host;
    const c = el.controller;
    return Boolean(c?.game) && !el.readonly && el.viewPly === null && !c.isOver() && c.humanToMove() && !el.board.promotion();
  }

  /** Whether the human may pick up the piece on `square`: one of the side to move, when they may move. */
  canSelect(square) {
    if (!this.canMoveNow()) return false;
    const game = this.host.game;
    const piece = game.board()[squareIndex(square)];
    return Boolean(piece) && (piece === piece.toUpperCase()) === (game.turn() === "w");
  }

  /** Legal destinations of the piece on a square, one per square, with the kind of move. */
  targetsFor(square) {
    const byTarget = new Map();
    for (const move of this.host.game.legalMovesFrom(square)) {
      if (!byTarget.has(move.to)) byTarget.set(move.to, { to: move.to, kind: move.kind, capture: Boolean(move.capture) });
    }
    return [...byTarget.values()];
  }

  /** A move gesture on the board: plays it, or opens the promotion chooser (keyboard-usable and announced). */
  onBoardMove(from, to, keyboard = false) {
    const el = this.host;
    const moves = el.game.legalMovesFrom(from).filter((m) => m.to === to);
    if (!moves.length) return;
    if (moves.some((m) => m.kind === "promotion" || m.promotion)) {
      el.board.setPromotion({ from, to, white: el.game.turn() === "w", keyboard });
      el.board.setInteractive(false);
      el.screen.announce("Promote to: queen, rook, bishop or knight. Arrow keys choose, Enter confirms, Escape cancels; or press q, r, b or n.");
      return;
    }
    el.controller.move(moves[0].uci, "human");
  }

  /** The promotion chooser's answer: a piece letter plays the move, null cancels it. */
  onPromotion(piece) {
    const el = this.host;
    const promo = el.board.promotion();
    el.board.setPromotion(null);
    if (piece && promo) el.controller.move(promo.from + promo.to + piece, "human");
    else {
      el.screen.announce("Promotion cancelled");
      el.screen.refresh(false);
    }
  }

  /** Plays the move typed in the move box, or says why it cannot. */
  playTyped() {
    const el = this.host;
    const input = el.$(".san-input");
    const text = input.value.trim();
    let message = "";
    if (!text) message = "Type a move first, such as e4 or Nf3.";
    else if (!this.canMoveNow()) message = el.controller.isOver() ? "The game is over." : "It is not your move.";
    else if (!el.controller.move(text, "human")) message = el.lastError ?? `Not a legal move: ${text}`;
    el.fields["san-error"].textContent = message;
    if (message) el.screen.announce(message);
    else input.value = "";
  }
}
