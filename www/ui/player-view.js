// The player's view: redraws the board (through its API) and the panels from the game controller, and turns the
// controller's events into what the person sees and hears and into the element's own events.

import { outcomeText, openingLine, renderBars, RESULT_TEXT, statusLine } from "./panels.js";
import { STAND_INS } from "./thinking-panel.js";

/** What the thinking panel's heading says for each kind of search. */
const SEARCH_CAPTIONS = { play: "Homeostat is thinking", analyse: "Analysing", hint: "Looking for a hint" };

/** Shows one <homeostat-chess> element's game. */
export class PlayerView {
  /** @param {any} host the element, holding the board API, panels and fields */
  constructor(host) {
    this.host = host;
    /** The last "Considering …" line of the current search: it stays up once the search is over. */
    this.searchLine = null;
  }

  /** Wires the controller's events to the board, panels and the element's own events. */
  connect(controller) {
    const el = this.host;
    const on = (type, handler) => controller.addEventListener(type, (event) => handler(event.detail));
    on("position", ({ animate }) => {
      // A passing error gives way to the new position's status.
      clearTimeout(el.errorTimer);
      delete el.fields.status.dataset.error;
      el.history.ply = null;
      el.board.setArrows([]);
      this.refresh(animate);
      el.save();
    });
    on("move", (detail) => {
      el.sounds.forMove(detail.played);
      if (detail.by === "engine" && el.settings.player !== "none") el.sounds.ding();
      this.announceMove(detail.san);
      el.emit("move", { san: detail.san, uci: detail.uci, fen: detail.fen, by: detail.by });
      el.play.afterMove(detail.by);
    });
    on("searchstart", ({ kind }) => {
      this.searchLine = null;
      el.thinkingPanel.reset();
      el.thinkingPanel.setMode(kind === "play" ? "thinking" : "analysing", SEARCH_CAPTIONS[kind]);
      el.fields.line.textContent = STAND_INS.thinking;
      this.refreshBars();
    });
    on("thinking", ({ kind, ...progress }) => {
      if (progress.scoreWhite && kind !== "hint") el.evalBar.set(progress.scoreWhite);
      if (progress.text) this.searchLine = progress.text;
      el.thinkingPanel.show(progress);
      const { bestUci: _uci, ...detail } = progress;
      el.emit("thinking", detail);
    });
    on("searchend", () => {
      el.thinkingPanel.flush();
      this.refreshIdle();
    });
    on("book", ({ san, kind }) => {
      el.thinkingPanel.setMode("book", "Book move");
      el.fields.line.textContent = kind === "hint" ? `Hint from the opening book: ${san}.` : `Played ${san} from the opening book.`;
      if (kind === "play") el.evalBar.book(controller.lastScore);
    });
    on("memory", (detail) => {
      if (detail.state === "hit") {
        el.thinkingPanel.setMode("memory", "From the shared memory");
        el.fields.line.textContent = detail.text;
      } else if (detail.state === "offline" || detail.state === "slow") {
        // Said once per outage or slow spell: the status line keeps "memory offline" (or "slow") until it answers
        // (in time) again.
        const then = detail.state === "slow" ? "Homeostat searches at once and plays a stored move that comes early in its search" : "Homeostat thinks on its own";
        this.announce(`Shared memory ${detail.state}: ${detail.reason}. ${then}.`);
        if (!controller.searching) el.fields.line.textContent = `Shared memory ${detail.state} (${detail.reason}); ${then}.`;
      }
      this.refreshBars();
      el.emit("memory", detail);
    });
    on("hint", ({ uci, san }) => {
      el.board.setArrows([{ from: uci.slice(0, 2), to: uci.slice(2, 4) }]);
      this.announce(`Hint: ${san ?? uci}`);
    });
    on("drawoffer", () => this.showOffer(true));
    on("drawanswer", ({ accepted }) => {
      el.fields.line.textContent = accepted ? "Homeostat accepts the draw." : "Homeostat declines the draw and plays on.";
      if (!accepted) this.showStatus("Draw offer declined");
      this.announce(accepted ? "Homeostat accepts the draw" : "Homeostat declines the draw");
    });
    on("gameover", (detail) => {
      el.sounds.end();
      el.board.setArrows([]);
      this.refresh(false);
      if (["resignation", "agreement", "time"].includes(detail.reason)) this.announce(outcomeText(detail));
      el.emit("gameover", detail);
    });
    on("engine", () => this.refreshIdle());
    on("clock", () => el.clocks?.render());
    on("error", ({ message }) => el.fail(message));
    on("enginestart", (detail) => el.emit("enginestart", detail));
    on("enginestop", (detail) => el.emit("enginestop", detail));
  }

  /** Tells screen readers about a move just played: "White played Nf3. Check". */
  announceMove(san) {
    const el = this.host;
    const mover = el.game.turn() === "w" ? "Black" : "White";
    const outcome = el.game.outcome();
    let text = `${mover} played ${san}`;
    if (outcome?.reason === "checkmate") text += `. Checkmate — ${RESULT_TEXT[outcome.result]}`;
    else if (outcome) text += `. ${outcomeText(outcome)}`;
    else if (el.game.inCheck()) text += ". Check";
    this.announce(text);
  }

  /** Puts text in the aria-live region. */
  announce(text) {
    const el = this.host;
    if (el.fields?.announce) el.fields.announce.textContent = text;
  }

  /** Redraws the board and panels from the game (or the position viewed); `animate` slides moved pieces. */
  refresh(animate) {
    const el = this.host;
    const game = el.game;
    if (!game) return;
    const live = el.viewPly === null;
    el.board.setPosition(live ? game.board() : game.boardAt(el.viewPly), animate);
    el.board.setLastMove((live ? game.lastMove() : game.lastMoveAt(el.viewPly)) ?? null);
    el.board.setMarks({ check: live ? (game.checkSquare() ?? null) : checkSquareOf(el.rules, game.fenAt(el.viewPly)) });
    el.board.setOrientation(el.settings.orientation);
    // Switching between moving and premoving drops a piece picked up for the other. (A waiting premove follows the
    // game in refreshBars, which this ends with.)
    const mode = el.play.inputMode();
    if (mode !== this.inputMode) el.board.setInteractive(false);
    this.inputMode = mode;
    el.board.setInteractive(mode !== null);
    el.clocks?.render();
    const sans = game.historySan();
    const start = game.startFen().split(" ");
    const outcome = game.outcome();
    el.moveList.render(sans, live ? sans.length : el.viewPly, start[1] === "b", Number(start[5]) || 1, outcome?.result);
    el.fields.opening.textContent = openingLine(game, el.bookError);
    el.$(".back-to-game").hidden = live;
    // After a game, the way to learn from it, until the review panel (with its own Review button) is open, and the
    // way to play again: against the engine with the other colour.
    const ended = Boolean(outcome) && live && game.ply() > 0 && !el.readonly;
    el.$(".after-game").hidden = !ended || Boolean(el.extrasView);
    el.$(".rematch").hidden = !ended;
    el.$(".game-end").hidden = !ended;
    const side = { white: "Black", black: "White" }[el.settings.player];
    el.$(".rematch").textContent = side ? `Rematch as ${side}` : "Play again";
    const banner = el.$(".board-banner");
    banner.hidden = !outcome || !live;
    if (outcome) banner.textContent = outcomeText(outcome, " · ");
    el.$(".graph").hidden = !outcome;
    if (outcome) el.graph.set(Array.from({ length: sans.length + 1 }, (_, i) => el.controller.evals[i] ?? null), live ? sans.length : el.viewPly);
    if (!el.controller.drawOffered) this.showOffer(false);
    this.refreshIdle();
    el.extrasView?.refresh();
  }

  /** Status line, player bars and which controls work. */
  refreshBars() {
    const el = this.host;
    if (!el.game) return;
    // The state may have changed under a waiting premove (analysis began, the engine failed).
    el.play.sync();
    if ((!el.fields.status.dataset.error && !el.fields.status.dataset.note) || el.controller.engineState === "failed") {
      const { text, error } = statusLine(el.controller, el.viewPly);
      this.showStatus(text, error);
    }
    el.dataset.over = String(el.controller.isOver());
    renderBars({ $: el.$, fields: el.fields }, el.controller, {
      orientation: el.settings.orientation,
      viewPly: el.viewPly,
      muted: el.sounds.muted,
      readonly: el.readonly,
      pieces: el.boardState.pieces,
    });
  }

  /** The thinking panel's heading when no search runs: game over, the engine's failure, or idle. */
  refreshIdle() {
    const el = this.host;
    const c = el.controller;
    const failed = c.engineState === "failed" && !el.readonly;
    el.$(".engine-notice").hidden = !failed;
    // Levels 1 and 2 do without the net, so its absence is news only at the levels that use it.
    const netError = failed || el.readonly || !el.rules?.levelUsesNet(el.settings.level) ? null : c.netError;
    el.fields["net-note"].hidden = !netError;
    el.fields["net-note"].textContent = netError ? `${netError[0].toUpperCase()}${netError.slice(1)}.` : "";
    if (failed) {
      el.thinkingPanel.setMode("error", "Engine unavailable");
      el.fields.line.textContent = c.engineMessage;
    } else if (!c.searching) {
      const mode = el.thinkingPanel.root.dataset.mode;
      if (c.isOver()) {
        el.thinkingPanel.setMode("idle", "Game over");
        // The engine's last line stays; a game loaded already finished has none, and no move to ask for.
        if (!this.searchLine) el.fields.line.textContent = "No more moves: start a new game, or look back through this one.";
      } else if ((mode !== "book" && mode !== "memory") || el.fields.line.textContent === STAND_INS.thinking) {
        el.thinkingPanel.setMode("idle", c.engineState === "loading" ? "Engine loading" : "Engine idle");
      }
      // "Thinking…" belongs to a running search only, the loading lines to a player not yet started.
      if (Object.values(STAND_INS).includes(el.fields.line.textContent)) {
        el.fields.line.textContent = this.searchLine ?? (c.humanToMove() ? "Make a move on the board." : "Waiting.");
      }
    }
    this.refreshBars();
  }

  /** Shows or hides the engine's draw offer with its Accept and Decline buttons. */
  showOffer(open) {
    this.host.$(".draw-offer").hidden = !open;
    if (open) this.announce("Homeostat offers a draw. Accept or decline.");
  }

  /**
   * The status line; `error` marks it as a problem.
   * @param {string} text
   * @param {boolean} [error]
   */
  showStatus(text, error = false) {
    const el = this.host;
    el.fields.status.textContent = text;
    if (error) el.fields.status.dataset.error = "true";
    else delete el.fields.status.dataset.error;
  }
}

/** The checked king's square in a FEN, through a temporary Game. */
function checkSquareOf(rules, fen) {
  if (!fen) return null;
  const game = new rules.Game(fen);
  const square = game.checkSquare() ?? null;
  game.free?.();
  return square;
}
