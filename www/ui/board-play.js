// The human's play on a player element: when they may move, what they may pick up and where it may go, the
// promotion chooser, premoves while the engine thinks, and moves typed in the move box. Moves go to the element's
// controller; the board changes only through its API.

import { squareIndex } from "../board/board-state.js";
import { attachBoardInput } from "../board/board-input.js";
import { attachBoardKeys } from "../board/board-keys.js";
import { PIECE_NAMES, premoveFromText, premoveMove, premoveTargets } from "./premove.js";

/** The board input policy of one `<homeostat-chess>` element. */
export class BoardPlay {
  /** @param {import("../homeostat-chess.js").HomeostatChess} host */
  constructor(host) {
    this.host = host;
    /** The move set while the engine (playing `engine`) thinks, for the position `fen` at `ply`, or null. */
    this.premove = null;
    /** Whether the engine's reply has come and the premove is about to be played. */
    this.premoveDue = false;
  }

  /** Wires pointer and keyboard input on the board's renderer to this policy. */
  attach(renderer) {
    const el = this.host;
    const hooks = {
      canSelect: (square) => this.canSelect(square),
      targetsFor: (square) => this.targetsFor(square),
      onMove: (from, to, keyboard) => this.onBoardMove(from, to, keyboard),
      onPromotion: (piece) => this.onPromotion(piece),
      onEmptyPress: () => this.cancelPremove("cancelled"),
      onEscape: () => this.cancelPremove("cancelled"),
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

  /**
   * Whether the human may set a premove now: in a game against the engine, on the live board, while it is the
   * engine's move, unless they turned premoves off.
   */
  canPremoveNow() {
    const el = this.host;
    const c = el.controller;
    return (
      el.settings.premoves !== false &&
      Boolean(c?.game) &&
      !el.readonly &&
      el.viewPly === null &&
      !c.isOver() &&
      !c.humanToMove() &&
      c.engineColor() !== null &&
      c.engineState !== "failed" &&
      !el.board.promotion()
    );
  }

  /** What the board takes from the human now: a move, a premove, or nothing (null). */
  inputMode() {
    return this.canMoveNow() ? "move" : this.canPremoveNow() ? "premove" : null;
  }

  /** Whether the human may pick up the piece on `square`: one of the side to move, or of theirs for a premove. */
  canSelect(square) {
    const game = this.host.game;
    const mode = this.inputMode();
    if (!mode) return false;
    const side = mode === "move" ? game.turn() : this.host.controller.engineColor() === "w" ? "b" : "w";
    const piece = game.board()[squareIndex(square)];
    return Boolean(piece) && (piece === piece.toUpperCase()) === (side === "w");
  }

  /** Legal destinations of the piece on a square (a premove's reachable squares), one per square, with the kind of move. */
  targetsFor(square) {
    const mode = this.inputMode();
    if (mode !== "move") {
      const game = this.host.game;
      return mode === "premove" ? premoveTargets(game.board(), square, game.fen().split(" ")[2] ?? "-") : [];
    }
    const byTarget = new Map();
    for (const move of this.host.game.legalMovesFrom(square)) {
      if (!byTarget.has(move.to)) byTarget.set(move.to, { to: move.to, kind: move.kind, capture: Boolean(move.capture) });
    }
    return [...byTarget.values()];
  }

  /**
   * A move gesture on the board: plays it, or opens the promotion chooser (keyboard-usable and announced) unless the
   * person chose always to promote to a queen.
   */
  onBoardMove(from, to, keyboard = false) {
    const el = this.host;
    const mode = this.inputMode();
    if (mode !== "move") {
      if (mode === "premove") this.setPremove(from, to);
      return;
    }
    const moves = el.game.legalMovesFrom(from).filter((m) => m.to === to);
    if (!moves.length) return;
    if (moves.some((m) => m.kind === "promotion" || m.promotion)) {
      if (el.settings.autoQueen) return void el.controller.move(`${from}${to}q`, "human");
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

  /**
   * Plays the move typed in the move box in the game (from a look back too; while the engine thinks, sets it as the
   * premove), or says why it cannot.
   */
  playTyped() {
    const el = this.host;
    const input = el.$(".san-input");
    const text = input.value.trim();
    let message = "";
    // A move typed while looking back is meant for the game: back to it first, as the board's own moves need.
    if (text && el.viewPly !== null && !el.controller.isOver()) el.history.live();
    if (!text) message = "Type a move first, such as e4 or Nf3.";
    else if (this.canPremoveNow()) message = this.setTypedPremove(text);
    else if (!this.canMoveNow()) message = this.whyNoMove();
    else if (!el.controller.move(text, "human")) message = el.lastError ?? `Not a legal move: ${text}`;
    el.fields["san-error"].textContent = message;
    if (message) el.screen.announce(message);
    else input.value = "";
  }

  /** Why the person cannot move now, in words for the move box. */
  whyNoMove() {
    const el = this.host;
    const c = el.controller;
    if (c.isOver()) return "The game is over.";
    if (el.readonly) return "This board only shows the game.";
    if (c.options.player === "none") return "Homeostat plays both sides: choose Human vs computer in New game to play.";
    if (c.engineState === "failed") return "The engine is unavailable: press Try again, or Play both sides.";
    return "It is not your move.";
  }

  /** Sets a typed move as the premove; returns why it cannot be one, or "" when set. */
  setTypedPremove(text) {
    const game = this.host.game;
    const side = this.host.controller.engineColor() === "w" ? "b" : "w";
    const read = premoveFromText(game.board(), text, side, game.fen().split(" ")[2] ?? "-");
    if ("error" in read) return /^Not a move/.test(read.error) ? read.error : `Not a premove: ${read.error[0].toLowerCase()}${read.error.slice(1)}`;
    this.setPremove(read.from, read.to, read.promotion);
    return "";
  }

  /**
   * Sets the premove `from`–`to` for the position now on the board (replacing any other), promoting to `promotion`
   * when a typed move named the piece.
   */
  setPremove(from, to, promotion) {
    const el = this.host;
    const game = el.game;
    this.premove = { from, to, promotion, ply: game.ply(), fen: game.fen(), engine: el.controller.engineColor() };
    this.premoveDue = false;
    el.board.setPremove({ from, to });
    const onto = promotion ? `${to}, promoting to a ${PIECE_NAMES[promotion]}` : to;
    el.screen.announce(`Premove ${from} to ${onto}: played when Homeostat has moved, if it is legal then. Press Escape or click the board to cancel.`);
    el.emit("premove", { state: "set", from, to, ...(promotion && { promotion }) });
  }

  /**
   * Drops the premove, saying `why` ("cancelled", or why it could not be played); returns whether there was one.
   * @param {string} why
   */
  cancelPremove(why) {
    const p = this.premove;
    if (!p) return false;
    this.premove = null;
    this.premoveDue = false;
    this.host.board.setPremove(null);
    this.host.screen.announce(`Premove ${p.from} to ${p.to} ${why}.`);
    this.host.emit("premove", { state: "cancelled", from: p.from, to: p.to, reason: why });
    return true;
  }

  /** Whether the game still stands in the premove `p`'s position, the engine to answer it. */
  standing(p) {
    const game = this.host.game;
    return game.ply() === p.ply && game.fen() === p.fen;
  }

  /** Whether the game is one move on from the premove `p`'s position: that position answered. */
  answered(p) {
    const game = this.host.game;
    return game.ply() === p.ply + 1 && game.fenAt(p.ply) === p.fen;
  }

  /**
   * Follows the game after any change: the premove waits while its position stands and the engine is still to
   * answer it (a look back through the game keeps it); a move out of that position is left to {@link afterMove};
   * anything else (a new game, a take-back, a loaded position) drops it.
   */
  sync() {
    const p = this.premove;
    const el = this.host;
    if (!p || this.premoveDue || !el.game) return;
    if (this.standing(p)) {
      if (el.settings.premoves === false) this.cancelPremove("cancelled: premoves are turned off");
      else if (el.controller.engineState === "failed") this.cancelPremove("cancelled: the engine is unavailable");
      else if (el.viewPly === null && !this.canPremoveNow()) this.cancelPremove("cancelled: the players changed");
      return;
    }
    if (!this.answered(p)) this.cancelPremove("cancelled: the game changed");
  }

  /**
   * A move was played (`by` the engine or a person): the engine's reply to the premove's position plays it, once
   * the controller has finished with that move; any other move drops it.
   * @param {"human" | "engine"} by
   */
  afterMove(by) {
    const p = this.premove;
    if (!p || this.premoveDue || !this.host.game) return;
    if (by === "engine" && this.answered(p)) {
      this.premoveDue = true;
      queueMicrotask(() => this.playPremove());
    } else this.cancelPremove(by === "engine" ? "cancelled: the game changed" : "cancelled: the players changed");
  }

  /** Plays the premove after the engine's reply, or says why it cannot be played. */
  playPremove() {
    const el = this.host;
    const p = this.premove;
    if (!p || !this.premoveDue) return;
    const game = el.game;
    if (!game || !this.answered(p)) return void this.cancelPremove("cancelled: the game changed");
    if (el.controller.engineColor() !== p.engine) return void this.cancelPremove("cancelled: the players changed");
    if (!this.canMoveNow()) return void this.cancelPremove(el.controller.isOver() ? "cancelled: the game is over" : "cancelled");
    const move = premoveMove(game.legalMovesFrom(p.from), p.to, p.promotion);
    if (!move) return void this.cancelPremove(`cancelled: not a legal move after ${game.historySan().at(-1)}`);
    this.premove = null;
    this.premoveDue = false;
    el.board.setPremove(null);
    el.emit("premove", { state: "played", from: p.from, to: p.to });
    el.controller.move(move.uci, "human");
  }
}
