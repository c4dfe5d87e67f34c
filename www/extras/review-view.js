// The review and analysis panel of <homeostat-chess>, loaded on demand (the first Review or Analyse, an analysing
// search, a PGN with review marks, or the first right-button press on the board): the review's progress and
// results, marks in the move list and on the graph, the better move of a marked move, MultiPV lines with their
// arrows, and the person's own arrows and circles. The review's logic is extras/review.js; this module only shows it.

import { MARK_GLYPHS, reviewAnnotations, reviewFromAnnotations, reviewGame } from "./review.js";

const STYLE_URL = new URL("./review-view.css", import.meta.url).href;
const ENGINE_URL = new URL("../engine/engine-client.js", import.meta.url).href;

/** Colours of drawn shapes by their PGN letter, as lichess draws them. */
const SHAPE_COLORS = { G: "rgba(21, 120, 27, 0.8)", R: "rgba(136, 32, 32, 0.8)", Y: "rgba(230, 143, 0, 0.8)", B: "rgba(0, 48, 136, 0.8)" };
/** MultiPV arrows: the best line boldest. */
const LINE_WEIGHTS = [1.35, 0.9, 0.7, 0.55, 0.45];
const LINE_ALPHAS = [0.85, 0.6, 0.5, 0.42, 0.36];
/** Mark colours on the graph and in the list. */
const MARK_COLORS = { inaccuracy: "#d9a400", mistake: "#e07000", blunder: "#d03030" };
/** Move-list wording of the marks. */
const MARK_WORDS = { inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
/** The NAGs of a good move, as a PGN's annotator gives them: glyph and words. */
const PRAISE = {
  1: { kind: "good", glyph: "!", words: "good move" },
  3: { kind: "brilliant", glyph: "!!", words: "brilliant move" },
  5: { kind: "interesting", glyph: "!?", words: "interesting move" },
};

/**
 * A score for people, White's view: +0.35, -1.20, #3.
 * @param {{cp?: number, mate?: number}} score
 */
function scoreText(score) {
  if (score.mate !== undefined) return `#${score.mate}`;
  const cp = score.cp ?? 0;
  return `${cp > 0 ? "+" : cp < 0 ? "-" : ""}${(Math.abs(cp) / 100).toFixed(2)}`;
}

/** The panel of one player element. */
export class ReviewView {
  /** @param {any} host the <homeostat-chess> element */
  constructor(host) {
    this.host = host;
    /** @type {any} the review shown: {moves, accuracy, evals}, or null */
    this.result = null;
    /** @type {AbortController | null} */
    this.running = null;
    /** The person's arrows and circles by ply: {arrows: ["Ge2e4"], circles: ["Gd4"]}. */
    this.shapes = {};
    /** The MultiPV lines last reported. */
    this.lines = [];
    /** A right-button or keyboard arrow being drawn: its first square. */
    this.draft = null;
    this.game = null;
    this.build();
    const c = host.controller;
    c.addEventListener("thinking", (event) => this.onThinking(event.detail));
    c.addEventListener("searchstart", () => this.showLines([]));
    c.addEventListener("position", () => {
      // Lines belong to the position they were found for; a new search brings its own.
      this.showLines([]);
      this.onPosition();
    });
    this.onPosition();
  }

  /** Adds the panel (before the move list) and its stylesheet to the element's shadow tree. */
  build() {
    const el = this.host;
    const root = el.shadowRoot;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = STYLE_URL;
    root.append(link);
    const panel = document.createElement("section");
    panel.className = "panel review-panel";
    panel.dataset.part = "review";
    panel.setAttribute("aria-label", "Review and analysis");
    // The panel waits for its stylesheet: unstyled, a read-only viewer would flash the review buttons it hides.
    panel.style.display = "none";
    const show = () => panel.style.removeProperty("display");
    link.addEventListener("load", show, { once: true });
    link.addEventListener("error", show, { once: true });
    panel.innerHTML = `
      <div class="review-row">
        <button type="button" data-review="start">Review game</button>
        <button type="button" data-review="cancel" hidden>Cancel</button>
        <button type="button" data-review="next" hidden>Next mistake</button>
        <progress class="review-progress" max="1" value="0" hidden aria-label="Review progress"></progress>
        <span class="review-group">
          <button type="button" data-review="analyse" aria-pressed="false">Analyse</button>
          <label>Lines <select data-review="lines">${[1, 2, 3, 4, 5].map((n) => `<option>${n}</option>`).join("")}</select></label>
        </span>
      </div>
      <p class="review-summary" aria-live="polite"></p>
      <p class="review-better"></p>
      <p class="review-comment"></p>
      <ol class="analysis-lines" aria-label="Engine lines"></ol>`;
    el.$(".side").insertBefore(panel, el.$(".moves"));
    this.panel = panel;
    this.$ = (selector) => panel.querySelector(selector);
    this.$('[data-review="lines"]').value = String(el.controller.lines);
    panel.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      const action = button.dataset.review;
      if (action === "start") this.review().catch(() => {});
      else if (action === "cancel") this.running?.abort();
      else if (action === "next") this.nextMistake();
      else if (action === "analyse") el.controller.analysing ? this.stopAnalysis() : this.analyse({});
      else if (button.dataset.line !== undefined) this.playLine(Number(button.dataset.line), Number(button.dataset.index));
    });
    this.$('[data-review="lines"]').addEventListener("change", (event) => {
      const lines = Number(event.target.value);
      el.controller.lines = lines;
      if (el.controller.analysing) el.controller.analyse(lines);
      else if (el.controller.searching?.kind === "analyse") el.controller.think();
    });
  }

  // ——— Review ———

  /**
   * Reviews the game in a worker of its own; resolves to `{moves, accuracy}` and fires `review`, or rejects (an
   * AbortError when cancelled).
   */
  async review() {
    const el = this.host;
    const game = el.game;
    if (!game || game.ply() === 0) throw new Error("there are no moves to review");
    this.running?.abort();
    const running = (this.running = new AbortController());
    const progress = this.$(".review-progress");
    // The moves reviewed: the marks apply while the game still starts with them.
    const uci = game.historyUci();
    this.setBusy(true);
    this.say(`Reviewing ${game.ply()} moves…`);
    try {
      const review = await reviewGame({
        game,
        createEngine: async () => new (await import(ENGINE_URL)).EngineClient({ book: el.bookBytes }),
        signal: running.signal,
        onProgress: (done, total) => {
          progress.max = total;
          progress.value = done;
        },
      });
      if (el.game !== game) throw Object.assign(new Error("the game changed during the review"), { name: "AbortError" });
      this.result = { ...review, uci };
      if (this.running === running) this.running = null;
      // Evaluations of later moves, played meanwhile, are kept.
      el.controller.evals = review.evals.map(plainScore).concat(el.controller.evals.slice(review.evals.length));
      el.screen.refresh(false);
      const detail = this.detail();
      el.emit("review", detail);
      return detail;
    } catch (err) {
      this.say(err?.name === "AbortError" ? "Review cancelled." : `Review failed: ${err?.message ?? err}`);
      if (err?.name !== "AbortError") el.fail(`review: ${err?.message ?? err}`);
      throw err;
    } finally {
      if (this.running === running) this.running = null;
      this.setBusy(false);
    }
  }

  /** The review as the `review` event and `review()` give it. */
  detail() {
    const moves = this.result.moves.map(({ ply, san, mark, best, bestSan, winDrop }) => ({ ply, san, mark, best, bestSan, winDrop }));
    return { moves, accuracy: { ...this.result.accuracy } };
  }

  setBusy(busy) {
    this.$(".review-progress").hidden = !busy;
    this.$('[data-review="cancel"]').hidden = !busy;
    this.$('[data-review="start"]').hidden = busy;
  }

  say(text) {
    this.$(".review-summary").textContent = text;
  }

  /** Accuracy and counts of marks. */
  summarise() {
    if (this.running) return;
    const r = this.current();
    this.$('[data-review="next"]').hidden = !r?.moves.some((m) => m.mark);
    if (!r) return this.say(this.result ? "The game has changed since its review: Review game again." : "");
    const whiteFirst = this.whiteFirst();
    const count = (side, mark) => r.moves.filter((m) => m.mark === mark && ((m.ply % 2 === 1) === whiteFirst) === (side === "white")).length;
    const sideText = (side) => {
      const accuracy = r.accuracy[side];
      const marks = ["inaccuracy", "mistake", "blunder"]
        .map((mark) => [count(side, mark), mark])
        .filter(([n]) => n)
        .map(([n, mark]) => `${n} ${MARK_WORDS[mark]}${n > 1 ? "s" : ""}`);
      return `${side === "white" ? "White" : "Black"} ${accuracy === null ? "–" : `${Math.round(accuracy)}%`}${marks.length ? ` (${marks.join(", ")})` : ""}`;
    };
    this.say(`Accuracy: ${sideText("white")} · ${sideText("black")}`);
  }

  whiteFirst() {
    return this.host.game.startFen().split(" ")[1] !== "b";
  }

  /** Shows the next marked move after the one shown (from the start after the last). */
  nextMistake() {
    const el = this.host;
    const marked = (this.current()?.moves ?? []).filter((m) => m.mark).map((m) => m.ply);
    if (!marked.length) return;
    const shown = el.viewPly ?? el.game.ply();
    const next = marked.find((ply) => ply > shown) ?? marked[0];
    el.history.view(next);
    const move = this.result.moves[next - 1];
    el.screen.announce(`${move.san}: ${MARK_WORDS[move.mark]}${move.bestSan ? `; better was ${move.bestSan}` : ""}`);
  }

  // ——— Game changes and redraws ———

  /** A new game takes the marks of its PGN, if any; moves after the reviewed ones leave the review as it was. */
  onPosition() {
    const el = this.host;
    if (el.game === this.game) return;
    this.game = el.game;
    this.running?.abort();
    const loaded = this.game ? reviewFromAnnotations(this.game) : null;
    this.result = loaded?.reviewed ? { ...loaded, uci: this.game.historyUci() } : null;
    this.shapes = loaded?.shapes ?? {};
    if (this.result) el.controller.evals = this.result.evals.map(plainScore);
    this.summarise();
    this.$(".review-better").textContent = "";
  }

  /** The review while it still describes the game: its moves are the game's first moves (a take-back and other
   * moves leave it behind). */
  current() {
    const r = this.result;
    const played = this.host.game?.historyUci() ?? [];
    return r && r.uci.length <= played.length && r.uci.every((m, i) => m === played[i]) ? r : null;
  }

  /** Called after every redraw of the element: marks, graph, arrows. */
  refresh() {
    const el = this.host;
    const game = el.game;
    if (!game) return;
    const shown = el.viewPly ?? game.ply();
    const r = this.current();
    this.summarise();
    const loaded = game.annotations();
    // The PGN's praise of a move (!, !!, !?) shows beside the review's marks, which are only ever faults.
    const praised = new Map(loaded.flatMap((a) => a.nags.filter((n) => PRAISE[n]).slice(0, 1).map((n) => [a.ply, PRAISE[n]])));
    for (const button of el.$(".move-list").querySelectorAll("button[data-ply]")) {
      const ply = Number(button.dataset.ply);
      const move = r?.moves[ply - 1];
      const mark = move?.mark ? { kind: move.mark, glyph: MARK_GLYPHS[move.mark], words: MARK_WORDS[move.mark] } : praised.get(ply);
      if (!mark) continue;
      const san = button.textContent;
      const glyph = document.createElement("span");
      glyph.className = "review-mark";
      glyph.dataset.mark = mark.kind;
      glyph.textContent = mark.glyph;
      glyph.setAttribute("aria-hidden", "true");
      button.append(glyph);
      button.setAttribute("aria-label", `${san}, ${mark.words}`);
    }
    if (r) {
      el.$(".graph").hidden = false;
      el.graph.marks = r.moves.filter((m) => m.mark).map((m) => ({ ply: m.ply, color: MARK_COLORS[m.mark] }));
      el.graph.set(Array.from({ length: game.ply() + 1 }, (_, i) => r.evals[i] ?? null), shown);
    }
    const move = r?.moves[shown - 1];
    const better = this.$(".review-better");
    if (move?.mark && move.bestSan) {
      // A mark read from a PGN without evaluations has no drop to quote.
      const drop = Number.isFinite(move.winDrop) ? ` (−${Math.round(move.winDrop)}% winning chances)` : "";
      better.textContent = `${move.san} is ${move.mark === "inaccuracy" ? "an" : "a"} ${MARK_WORDS[move.mark]}${drop}. Better: ${move.bestLine.join(" ") || move.bestSan}`;
    } else better.textContent = "";
    // What the game's PGN says about the position shown, without the commands it keeps (such as [%clk]).
    const said = loaded.find((a) => a.ply === shown)?.comment ?? "";
    this.$(".review-comment").textContent = said.replace(/\[%[^\]]*\]/g, " ").replace(/\s+/g, " ").trim();
    // A read-only viewer starts no engine: it shows only what the game's PGN says, and nothing when that is nothing.
    // By the attribute, not the panel's stylesheet: a viewer offers no review or analysis even when that file is missing.
    for (const part of this.panel.querySelectorAll(".review-row, .analysis-lines")) part.hidden = el.readonly;
    this.panel.hidden = el.readonly && ![".review-summary", ".review-better", ".review-comment"].some((s) => this.$(s).textContent);
    this.drawArrows();
  }

  /** The board's arrows: the better move of a marked move shown, the analysis lines, then the person's shapes. */
  drawArrows() {
    const el = this.host;
    const game = el.game;
    const shown = el.viewPly ?? game.ply();
    const arrows = [];
    const move = this.current()?.moves[shown - 1];
    if (move?.mark && move.best) arrows.push({ from: move.best.slice(0, 2), to: move.best.slice(2, 4), color: "rgba(21, 120, 27, 0.85)", weight: 1.2 });
    if (el.viewPly === null) {
      this.lines.forEach((line, i) => {
        const uci = line?.pv?.[0];
        if (uci) arrows.push({ from: uci.slice(0, 2), to: uci.slice(2, 4), color: `rgba(0, 48, 136, ${LINE_ALPHAS[i]})`, weight: LINE_WEIGHTS[i] });
      });
    }
    const drawn = this.shapes[shown];
    for (const text of [...(drawn?.arrows ?? []), ...(drawn?.circles ?? [])]) {
      const from = text.slice(1, 3);
      arrows.push({ from, to: text.length > 3 ? text.slice(3, 5) : from, color: SHAPE_COLORS[text[0]] });
    }
    el.board.setArrows(arrows);
  }

  // ——— Analysis ———

  /**
   * Analyses from now on with `lines` lines (the selector's count when absent).
   * @param {{lines?: number}} options
   */
  analyse({ lines } = {}) {
    const c = this.host.controller;
    c.analyse(lines ?? c.lines);
    this.$('[data-review="lines"]').value = String(c.lines);
    this.$('[data-review="analyse"]').setAttribute("aria-pressed", "true");
  }

  stopAnalysis() {
    this.host.controller.stopAnalysis();
    this.$('[data-review="analyse"]').setAttribute("aria-pressed", "false");
    this.showLines([]);
  }

  onThinking(detail) {
    if (detail.kind !== "analyse" || !detail.lines) return;
    this.showLines(detail.lines.filter(Boolean));
    const lines = this.lines.map(({ pv, pvSan, score, scoreWhite, depth }) => ({ pv, pvSan, score, scoreWhite, depth }));
    this.host.emit("analysis", { lines });
  }

  /** Lists the lines with their scores (White's view), depths and moves, each move a button that plays to it. */
  showLines(lines) {
    this.lines = lines;
    const list = this.$(".analysis-lines");
    list.replaceChildren(
      ...lines.map((line, i) => {
        const item = document.createElement("li");
        const head = document.createElement("span");
        head.className = "line-score";
        head.textContent = `${scoreText(line.scoreWhite ?? line.score)} · d${line.depth}`;
        head.title = `depth ${line.depth}`;
        item.append(head);
        line.pvSan.slice(0, 10).forEach((san, index) => {
          const button = document.createElement("button");
          button.type = "button";
          button.className = "line-move";
          button.dataset.line = String(i);
          button.dataset.index = String(index);
          button.textContent = san;
          button.setAttribute("aria-label", `Play ${line.pvSan.slice(0, index + 1).join(" ")}`);
          item.append(button);
        });
        return item;
      }),
    );
    if (this.host.game) this.drawArrows();
  }

  /** Plays line `i` up to its move `index` on the board. */
  playLine(i, index) {
    const el = this.host;
    const moves = this.lines[i]?.pv.slice(0, index + 1) ?? [];
    if (el.viewPly !== null) el.history.live();
    for (const uci of moves) if (!el.move(uci)) break;
  }

  // ——— The person's arrows and circles ———

  /**
   * A right-button press on the board starts an arrow; its release (or the square itself) ends it. Shift, Alt or
   * Ctrl pick red, blue or yellow, as on lichess.
   * @param {PointerEvent} down
   */
  press(down) {
    const el = this.host;
    const canvas = el.$(".board-canvas");
    const square = this.squareAt(down);
    if (!square) return;
    let done = false;
    const finish = (up) => {
      if (done) return;
      done = true;
      for (const type of ["pointerup", "mouseup"]) canvas.removeEventListener(type, finish);
      this.toggleShape(square, this.squareAt(up) ?? square, colorOf(down));
    };
    // The module may load after the button came up: that release was kept by the element. WebKit may end a
    // right press with a mouseup and no pointerup, so the first of either ends it.
    if (el.lastUp) finish(el.lastUp);
    else for (const type of ["pointerup", "mouseup"]) canvas.addEventListener(type, finish);
  }

  /**
   * The keyboard way: the key on the focused square starts an arrow, on another square ends it, on the same
   * square again draws a circle.
   * @param {string | null} square
   * @param {KeyboardEvent} event
   */
  key(square, event) {
    if (!square) return;
    if (!this.draft) {
      this.draft = square;
      this.host.screen.announce(`Arrow from ${square}: move to a square and press the key again (the same square for a circle)`);
      return;
    }
    const from = this.draft;
    this.draft = null;
    this.toggleShape(from, square, colorOf(event));
  }

  /** Left click on the board: the drawings of the position shown go away. */
  clear() {
    const el = this.host;
    const shown = el.viewPly ?? el.game?.ply() ?? 0;
    if (!this.shapes[shown]) return;
    delete this.shapes[shown];
    this.drawArrows();
  }

  /** Adds an arrow or circle to the position shown, or removes it when it is already there. */
  toggleShape(from, to, color) {
    const el = this.host;
    const shown = el.viewPly ?? el.game.ply();
    const drawn = (this.shapes[shown] ??= { arrows: [], circles: [] });
    const list = from === to ? drawn.circles : drawn.arrows;
    const text = `${color}${from}${from === to ? "" : to}`;
    // The same shape again takes it away; in another colour it is recoloured.
    const at = list.findIndex((t) => t.slice(1) === text.slice(1));
    const same = at >= 0 && list[at] === text;
    if (at >= 0) list.splice(at, 1);
    if (!same) list.push(text);
    el.screen.announce(same ? `Removed ${text.slice(1)}` : from === to ? `Circled ${from}` : `Arrow ${from} to ${to}`);
    this.drawArrows();
    el.emit("shapes", { ply: shown, arrows: [...drawn.arrows], circles: [...drawn.circles] });
  }

  /** The board square under a pointer event, as the renderer maps it (the board fills its square canvas). */
  squareAt(event) {
    const el = this.host;
    const rect = el.$(".board-canvas").getBoundingClientRect();
    const size = Math.min(rect.width, rect.height);
    const col = Math.floor(((event.clientX - rect.left) / size) * 8);
    const row = Math.floor(((event.clientY - rect.top) / size) * 8);
    if (!size || col < 0 || col > 7 || row < 0 || row > 7) return null;
    const white = el.board.orientation() === "white";
    return `${"abcdefgh"[white ? col : 7 - col]}${white ? 8 - row : row + 1}`;
  }

  // ——— Export ———

  /**
   * The game as annotated PGN (review marks, evaluations, better moves, drawings, said over the annotations of
   * the PGN it was loaded from), or null when there is nothing to add to the plain PGN.
   * @param {Record<string, string>} tags
   */
  pgn(tags) {
    const game = this.host.game;
    const review = this.current() ?? { moves: [], evals: [] };
    // Drawings on the start position (ply 0) go in the comment before the first move.
    const shapes = Object.fromEntries(Object.entries(this.shapes).filter(([ply, s]) => Number(ply) <= game.ply() && (s.arrows.length || s.circles.length)));
    const texts = reviewAnnotations(review, shapes);
    // Over a PGN's own annotations even with nothing to add, since this panel holds their drawings: one the
    // person took away stays away.
    return texts.length || game.annotations().length ? game.annotatedPgn(tags, texts) : null;
  }
}

/** A score as the controller keeps it: `{cp}` or `{mate}`, or null. */
function plainScore(score) {
  if (!score) return null;
  return score.mate !== undefined ? { mate: score.mate } : { cp: score.cp ?? 0 };
}

/** The shape colour for the keys held: Shift red, Alt blue, Ctrl (or Meta) yellow, else green. */
function colorOf(event) {
  if (event.shiftKey) return "R";
  if (event.altKey) return "B";
  if (event.ctrlKey || event.metaKey) return "Y";
  return "G";
}
