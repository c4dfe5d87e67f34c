// <homeostat-chess>: a chess player that shows its thinking. It wires the rules (wasm Game), the engine
// (worker client), the board (renderer + input) and the panels; it decides nothing about chess and draws nothing.

import { createBoardState, squareIndex } from "./board/board-state.js";
import { BoardRenderer } from "./board/board-render.js";
import { attachBoardInput } from "./board/board-input.js";
import { attachBoardKeys } from "./board/board-keys.js";
import { ATTRIBUTES, readChoice, readLevel, readMillis, readSeconds, readSize, readSwitch } from "./ui/attributes.js";
import { Dialogs } from "./ui/dialogs.js";
import { EvalBar } from "./ui/eval-bar.js";
import { EvalGraph } from "./ui/eval-graph.js";
import { ignoredKey, listenForShortcuts, shortcutAction } from "./ui/keyboard.js";
import { MoveList } from "./ui/move-list.js";
import { Sounds } from "./ui/sounds.js";
import { loadGame, loadSettings, saveGame, saveSettings } from "./ui/storage.js";
import { TEMPLATE } from "./ui/template.js";
import { ThinkingPanel } from "./ui/thinking-panel.js";
import { ICONS } from "./ui/icons.js";
import { loadRules } from "./engine/rules.js";

/** Assets, resolved next to this module so the element works from any folder. */
const STYLE_URL = new URL("./homeostat-chess.css", import.meta.url).href;
const ENGINE_URL = new URL("./engine/engine-client.js", import.meta.url).href;

/** Settings used until the player changes them. */
const DEFAULT_SETTINGS = {
  player: "white",
  level: 4,
  think: "level",
  book: true,
  analysis: true,
  sound: true,
  coordinates: true,
  boardTheme: "walnut",
  pieceTheme: "classic",
  orientation: "white",
};

/** Board colours a page may set as CSS custom properties on the element, by board-theme field. */
const COLOR_PROPERTIES = {
  light: "--homeostat-light-square",
  dark: "--homeostat-dark-square",
  lastMove: "--homeostat-last-move",
  selected: "--homeostat-selected",
  target: "--homeostat-target",
  check: "--homeostat-check",
  arrow: "--homeostat-arrow",
  focus: "--homeostat-focus",
};

/** Keys that step through the game in a read-only viewer. */
const VIEWER_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", ArrowUp: "first", ArrowDown: "last" };

/** Human words for results. */
const RESULT_TEXT = { "1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "Draw" };

let styleSheet = null;
/** The element's stylesheet as a constructable sheet, or null where those are unsupported. */
function loadStyleSheet() {
  const constructable = "adoptedStyleSheets" in Document.prototype && "replace" in CSSStyleSheet.prototype;
  if (!constructable) return Promise.resolve(null);
  styleSheet ??= fetch(STYLE_URL)
    .then((response) => response.text())
    .then((text) => new CSSStyleSheet().replace(text))
    .catch(() => null);
  return styleSheet;
}

/** The chess player element. */
export class HomeostatChess extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  constructor() {
    super();
    /** Settings; read in connectedCallback, when the attributes (persist) are known. */
    this.settings = null;
    this.sounds = new Sounds();
    /** Whether the game and settings are kept in localStorage (the `persist` attribute). */
    this.persist = false;
    /** A PGN viewer: no play, no engine (the `readonly` attribute). */
    this.readonly = false;
    /** Adaptive thinking bounds in ms, from think-min / think-max. */
    this.thinkBounds = { min: 500, max: 5000 };
    /** How many engine workers this element has started, for tests and curious pages. */
    this.engineStarts = 0;
    /** @type {any} the wasm Game */
    this.game = null;
    this.engine = null;
    this.searchId = 0;
    this.searching = null; // "play" | "analyse" | "hint" | null
    this.progress = {};
    this.viewPly = null;
    this.paused = false;
    /** White-view scores by ply, for the graph. */
    this.evals = [];
    this.cleanups = [];
    /** Resolves when the rules are loaded and the first position is shown. */
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  connectedCallback() {
    if (!this.settings) {
      this.persist = this.hasAttribute("persist");
      this.settings = { ...DEFAULT_SETTINGS, ...(this.persist ? loadSettings() : {}) };
      this.sounds.muted = !this.settings.sound;
    }
    if (!this.shadowRoot) this.build();
    this.cleanups.push(listenForShortcuts(this, (event) => this.handleShortcut(event)));
    for (const name of ["size", "show-thinking", "show-moves", "show-controls"]) this.applyAttribute(name, true);
    if (!this.game) this.start();
    else {
      this.renderer.fit();
      this.think();
    }
  }

  disconnectedCallback() {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.cancelSearch();
    this.stopEngine();
  }

  attributeChangedCallback(name, old, value) {
    if (!this.game || old === value) return;
    this.applyAttribute(name, false);
  }

  /**
   * Applies one attribute; `initial` while starting (settings only, nothing replayed). Bad values fire `error`.
   * @param {string} name
   * @param {boolean} initial
   */
  applyAttribute(name, initial) {
    const text = this.getAttribute(name);
    const use = (reading, apply) => (reading.error ? this.fail(reading.error) : apply(reading.value));
    const layout = this.$(".layout");
    switch (name) {
      case "player":
        if (text !== null) use(readChoice(name, text, ["white", "black", "both", "none"]), (v) => (initial ? (this.settings.player = v) : this.setPlayer(v)));
        break;
      case "level":
        if (text !== null) use(readLevel(text), (v) => (initial ? (this.settings.level = v) : this.setLevel(v)));
        break;
      case "orientation":
        if (text !== null) use(readChoice(name, text, ["white", "black"]), (v) => (initial ? (this.settings.orientation = v) : this.setOrientation(v)));
        break;
      case "movetime":
      case "think-min":
      case "think-max":
        this.readThinkTime();
        break;
      case "sound":
        this.settings.sound = readSwitch(text, initial ? this.settings.sound : true);
        this.sounds.muted = !this.settings.sound;
        if (!initial) this.refreshBars();
        break;
      case "coordinates":
        this.settings.coordinates = readSwitch(text, initial ? this.settings.coordinates : true);
        if (!initial) this.applyBoardSettings();
        break;
      case "theme":
        if (text !== null) use(readChoice(name, text, ["light", "dark", "auto"]), () => {});
        this.readColors();
        break;
      case "size":
        if (text === null) this.style.removeProperty("--homeostat-size");
        else use(readSize(text), (px) => this.style.setProperty("--homeostat-size", `${px}px`));
        break;
      case "show-thinking":
        if (text === null) layout.dataset.showThinking = "panel";
        else use(readChoice(name, text, ["line", "panel", "off"]), (v) => (layout.dataset.showThinking = v));
        break;
      case "show-moves":
      case "show-controls":
        layout.dataset[name === "show-moves" ? "showMoves" : "showControls"] = String(readSwitch(text, true));
        break;
      case "readonly":
        this.readonly = readSwitch(text, false);
        layout.dataset.readonly = String(this.readonly);
        this.$(".viewer").hidden = !this.readonly;
        if (!initial) {
          if (this.readonly) this.stopEngine();
          this.refresh(false);
          this.think();
        }
        break;
      case "fen":
        if (!initial && text) this.replaceGame(() => new this.rules.Game(text), true);
        break;
      case "pgn":
        if (!initial && text) this.replaceGame(() => this.rules.Game.load(text), true);
        break;
    }
  }

  /** Reads movetime, or think-min / think-max, into the thinking setting. */
  readThinkTime() {
    const movetime = this.getAttribute("movetime");
    const min = this.getAttribute("think-min");
    const max = this.getAttribute("think-max");
    if (movetime !== null) {
      const reading = readMillis("movetime", movetime);
      if (reading.error) return this.fail(reading.error);
      this.settings.think = String(reading.value);
    } else if (min !== null || max !== null) {
      const lo = min === null ? { value: 500 } : readSeconds("think-min", min);
      const hi = max === null ? { value: Math.max(5000, lo.value ?? 0) } : readSeconds("think-max", max);
      if (lo.error || hi.error) return this.fail(lo.error ?? hi.error);
      if (lo.value > hi.value) return this.fail(`think-min (${min} s) is above think-max (${max} s)`);
      this.thinkBounds = { min: lo.value, max: hi.value };
      this.settings.think = "adaptive";
    }
  }

  /** Reads the board colour custom properties set on the element (at start, on `theme`; call after changing them). */
  readColors() {
    if (!this.boardState) return;
    const style = getComputedStyle(this);
    const colors = {};
    for (const [field, property] of Object.entries(COLOR_PROPERTIES)) {
      const value = style.getPropertyValue(property).trim();
      if (value) colors[field] = value;
    }
    this.boardState.colors = colors;
    this.renderer.requestDraw();
  }

  /**
   * Runs the shortcut for a key press, as if it were pressed inside this player; returns whether it was used.
   * A page with one player may forward its document's keys here.
   * @param {KeyboardEvent} event
   */
  handleShortcut(event) {
    if (!this.game || this.dialogs.open) return false;
    if (this.readonly) {
      const step = VIEWER_KEYS[event.key];
      if (event.key === "f" || event.key === "F") return this.runAction("flip", true);
      return Boolean(step) && !ignoredKey(event) && this.runAction(step, true);
    }
    const action = shortcutAction(event);
    if (!action) return false;
    this.sounds.unlock();
    return this.runAction(action, true);
  }

  /** Builds the shadow tree, styles, board and panels. */
  build() {
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = TEMPLATE;
    this.hideUntilStyled(root);
    const $ = (selector) => root.querySelector(selector);
    this.$ = $;
    this.fields = Object.fromEntries([...root.querySelectorAll(".layout [data-field]")].map((el) => [el.dataset.field, el]));
    this.boardState = createBoardState();
    this.renderer = new BoardRenderer($(".board-canvas"), this.boardState);
    const hooks = {
      canSelect: (square) => this.canSelect(square),
      targetsFor: (square) => this.targetsFor(square),
      onMove: (from, to, keyboard) => this.onBoardMove(from, to, keyboard),
      onPromotion: (piece) => this.onPromotion(piece),
      enabled: () => !this.readonly,
      announce: (text) => this.announce(text),
    };
    attachBoardInput(this.renderer, hooks);
    attachBoardKeys(this.renderer, hooks);
    $(".san-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.playTyped();
    });
    this.thinkingPanel = new ThinkingPanel($(".thinking"));
    this.evalBar = new EvalBar($(".evalbar"));
    this.moveList = new MoveList($(".move-list"), (ply) => this.view(ply));
    this.graph = new EvalGraph($(".graph-canvas"), (ply) => this.view(ply));
    this.dialogs = new Dialogs(root, {
      startGame: (options) => this.startFromDialog(options),
      importText: (text) => this.importText(text),
      pgn: () => this.pgn,
      fen: () => this.fen,
      settings: () => this.settings,
      levelElo: (level) => this.rules?.levelElo(level),
      applySettings: (changes) => this.applySettings(changes),
      closed: () => this.$(".board-canvas").focus?.({ preventScroll: true }),
    });
    root.addEventListener("click", (event) => {
      const button = event.target.closest(".layout [data-action]");
      if (!button) return;
      this.sounds.unlock();
      this.runAction(button.dataset.action, false);
    });
    // Audio may start in a user gesture: a mouse press counts on pointerdown, a tap only when the finger lifts.
    this.addEventListener("pointerdown", () => this.sounds.unlock());
    this.addEventListener("pointerup", () => this.sounds.unlock());
    this.applyBoardSettings();
  }

  /** Adopts the constructable stylesheet, or falls back to a <link>; the tree stays hidden until styled. */
  hideUntilStyled(root) {
    const layout = root.querySelector(".layout");
    layout.hidden = true;
    loadStyleSheet().then((sheet) => {
      if (sheet) {
        root.adoptedStyleSheets = [sheet];
        layout.hidden = false;
      } else {
        const link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = STYLE_URL;
        link.addEventListener("load", () => (layout.hidden = false));
        link.addEventListener("error", () => (layout.hidden = false));
        root.prepend(link);
      }
      requestAnimationFrame(() => this.renderer.fit());
    });
  }

  /** Loads rules and engine, then restores the saved game or starts one. */
  async start() {
    try {
      this.rules = await loadRules();
    } catch (err) {
      this.showStatus(`Could not load the rules module: ${err.message}`);
      this.dataset.state = "error";
      return;
    }
    for (const name of ATTRIBUTES) if (name !== "fen" && name !== "pgn") this.applyAttribute(name, true);
    // Playing Black, the board shows Black at the bottom unless the page says otherwise.
    if (!this.hasAttribute("orientation") && this.getAttribute("player") === "black") this.settings.orientation = "black";
    const fen = this.getAttribute("fen");
    const pgn = this.getAttribute("pgn");
    let game = null;
    try {
      if (pgn) game = this.rules.Game.load(pgn);
      else if (fen) game = new this.rules.Game(fen);
    } catch (err) {
      this.fail(`bad ${pgn ? "pgn" : "fen"} attribute: ${err.message}`);
    }
    const given = Boolean(fen || pgn);
    if (!game && !given && this.persist) game = this.restoreGame();
    this.game = game ?? new this.rules.Game();
    this.evals = given || !this.persist ? [] : (loadGame()?.evals ?? []);
    this.applyBoardSettings();
    this.refresh(false);
    this.dataset.state = "ready";
    // A timeline mark, so pages (and tools/measure-web.mjs) can see when the board became playable.
    performance.mark?.("homeostat-ready");
    this.markReady();
    if (this.isOver()) this.emit("gameover", { ...this.status });
    this.think();
  }

  /** Starts the engine worker the first time it is needed; without it, the element still lets humans play. */
  async startEngine() {
    if (this.engine || this.engineLoading || this.readonly) return;
    this.engineLoading = true;
    let client;
    try {
      const { EngineClient } = await import(ENGINE_URL);
      client = new EngineClient();
    } catch (err) {
      this.thinkingPanel.setMode("idle", "Engine unavailable");
      this.fields.line.textContent = `The engine could not start: ${err.message}`;
      return;
    } finally {
      this.engineLoading = false;
    }
    if (!this.isConnected || this.readonly) return client.destroy();
    this.engine = client;
    client.preload();
    this.engineStarts++;
    this.emit("enginestart", { starts: this.engineStarts });
    this.think();
    if (this.wantHint) {
      this.wantHint = false;
      this.hint();
    }
  }

  /** Ends the engine worker (the element left the page, or became a viewer). */
  stopEngine() {
    if (!this.engine) return;
    this.cancelSearch();
    this.engine.destroy();
    this.engine = null;
    this.emit("enginestop", { starts: this.engineStarts });
  }

  /** Whether this element's engine worker is running. */
  get engineRunning() {
    return Boolean(this.engine);
  }

  /** The saved game replayed, or null. */
  restoreGame() {
    const saved = loadGame();
    if (!saved) return null;
    try {
      const game = new this.rules.Game(saved.startFen);
      for (const move of saved.moves) game.play(move);
      if (saved.ending?.reason === "resignation") game.resign(saved.ending.result === "1-0" ? "b" : "w");
      else if (saved.ending?.reason === "agreement") game.agreeDraw();
      return game;
    } catch {
      return null;
    }
  }

  // ——— State questions ———

  /** Whether the side to move is played by a human. */
  humanToMove() {
    const p = this.settings.player;
    if (p === "both") return true;
    if (p === "none") return false;
    return this.game.turn() === (p === "black" ? "b" : "w");
  }

  /** Whether the game is over. */
  isOver() {
    return Boolean(this.game?.outcome());
  }

  /** Whether the human may move now on the live board. */
  canMoveNow() {
    return this.game && !this.readonly && this.viewPly === null && !this.isOver() && this.humanToMove() && !this.boardState.promotion;
  }

  canSelect(square) {
    if (!this.canMoveNow()) return false;
    const piece = this.boardState.pieces[squareIndex(square)];
    if (!piece) return false;
    return (piece === piece.toUpperCase()) === (this.game.turn() === "w");
  }

  /** Legal destinations of the piece on a square, one per square, with the kind of move. */
  targetsFor(square) {
    const byTarget = new Map();
    for (const move of this.game.legalMovesFrom(square)) {
      if (!byTarget.has(move.to)) byTarget.set(move.to, { to: move.to, kind: move.kind, capture: Boolean(move.capture) });
    }
    return [...byTarget.values()];
  }

  // ——— Moves ———

  /** A move gesture on the board: plays it, or opens the promotion chooser. */
  onBoardMove(from, to, keyboard = false) {
    const moves = this.game.legalMovesFrom(from).filter((m) => m.to === to);
    if (!moves.length) return;
    const promotion = moves.some((m) => m.kind === "promotion" || m.promotion);
    // From the keyboard a pawn promotes to a queen; the move box takes any piece (e8=N).
    if (promotion && keyboard) return void this.playMove(from + to + "q", "human");
    if (promotion) {
      this.boardState.promotion = { to, from, white: this.game.turn() === "w", choices: ["q", "r", "b", "n"] };
      this.boardState.interactive = false;
      this.renderer.requestDraw();
      return;
    }
    this.playMove(moves[0].uci, "human");
  }

  onPromotion(piece) {
    const promo = this.boardState.promotion;
    this.boardState.promotion = null;
    this.boardState.interactive = true;
    if (piece && promo) this.playMove(promo.from + promo.to + piece, "human");
    else this.renderer.requestDraw();
  }

  /**
   * Plays a move and updates everything; returns the played move or null (and fires `error`) when illegal.
   * @param {string} text UCI or SAN
   * @param {"human"|"engine"} by
   */
  playMove(text, by) {
    if (this.isOver()) {
      this.fail(`illegal move: ${text} (the game is over)`);
      return null;
    }
    let played;
    try {
      played = this.game.play(text);
    } catch (err) {
      this.fail(err.message);
      return null;
    }
    this.cancelSearch();
    this.viewPly = null;
    this.boardState.arrows = [];
    this.sounds.forMove(played);
    if (by === "engine" && this.settings.player !== "none") this.sounds.ding();
    this.refresh(true);
    this.announceMove(played.san);
    this.emit("move", { san: played.san, uci: played.uci, fen: played.fen, by });
    this.save();
    if (this.isOver()) this.finish();
    else this.think();
    return played;
  }

  /** Tells screen readers about a move just played: "White played Nf3. Check". */
  announceMove(san) {
    const mover = this.game.turn() === "w" ? "Black" : "White";
    const outcome = this.game.outcome();
    let text = `${mover} played ${san}`;
    if (outcome?.reason === "checkmate") text += `. Checkmate — ${RESULT_TEXT[outcome.result]}`;
    else if (outcome) text += `. ${RESULT_TEXT[outcome.result] ?? outcome.result} by ${outcome.reason}`;
    else if (this.game.inCheck()) text += ". Check";
    this.announce(text);
  }

  /** Puts text in the aria-live region. */
  announce(text) {
    const region = this.fields?.announce;
    if (region) region.textContent = text;
  }

  /** Plays the move typed in the move box, or says why it cannot. */
  playTyped() {
    const input = this.$(".san-input");
    const text = input.value.trim();
    const error = this.fields["san-error"];
    let message = "";
    if (!text) message = "Type a move first, such as e4 or Nf3.";
    else if (!this.canMoveNow()) message = this.isOver() ? "The game is over." : "It is not your move.";
    else if (!this.playMove(text, "human")) message = this.lastError ?? `Not a legal move: ${text}`;
    error.textContent = message;
    if (message) this.announce(message);
    else input.value = "";
  }

  /** Announces the end of the game. */
  finish() {
    this.cancelSearch();
    const outcome = this.game.outcome();
    this.boardState.arrows = [];
    this.sounds.end();
    this.refresh(false);
    if (outcome.reason === "resignation" || outcome.reason === "agreement") this.announce(`${RESULT_TEXT[outcome.result] ?? outcome.result} by ${outcome.reason}`);
    this.emit("gameover", { result: outcome.result, reason: outcome.reason });
  }

  // ——— Engine ———

  /** The search limits from the settings. */
  limits() {
    const limits = { level: this.settings.level, useBook: this.settings.book };
    const think = this.settings.think;
    if (think === "adaptive") Object.assign(limits, { thinkMinMs: this.thinkBounds.min, thinkMaxMs: this.thinkBounds.max });
    else if (think !== "level") limits.movetimeMs = Number(think);
    return limits;
  }

  /** Starts the engine on the engine's turn, or an analysis in human-vs-human games. */
  think() {
    this.cancelSearch();
    if (!this.game || this.readonly || this.viewPly !== null || this.isOver()) return this.refreshIdle();
    if (!this.engine) {
      // The worker starts only when there is something for it to do.
      const needed = this.humanToMove() ? this.settings.player === "both" && this.settings.analysis : !this.paused;
      if (needed && this.isConnected) this.startEngine();
      return this.refreshIdle();
    }
    if (this.humanToMove()) {
      if (this.settings.player === "both" && this.settings.analysis) {
        this.search("analyse", { level: 8, movetimeMs: 60_000, useBook: false });
      }
      return this.refreshIdle();
    }
    if (this.paused) return this.refreshIdle();
    this.search("play", this.limits());
  }

  /** Runs one search; `kind` says what to do with its result. */
  search(kind, limits) {
    const id = ++this.searchId;
    this.searching = kind;
    this.progress = {};
    this.thinkingPanel.reset();
    const caption = { play: "Homeostat is thinking", analyse: "Analysing", hint: "Looking for a hint" }[kind];
    this.thinkingPanel.setMode(kind === "play" ? "thinking" : "analysing", caption);
    this.fields.line.textContent = "Thinking…";
    this.refreshBars();
    const request = { fen: this.game.startFen(), moves: this.game.historyUci(), ...limits };
    const ply = this.game.ply();
    this.searchPly = ply;
    this.engine
      .search(request, { onProgress: (event) => this.onProgress(id, event) })
      .then(
        (result) => this.onResult(id, kind, ply, result),
        (err) => {
          if (id !== this.searchId) return;
          this.searching = null;
          this.fail(`engine: ${err.message}`);
          this.refreshIdle();
        },
      );
  }

  /** Stops the running search, ignoring its result. */
  cancelSearch() {
    if (this.searching) {
      this.searchId++;
      this.searching = null;
      this.engine?.stop?.();
    }
  }

  onProgress(id, event) {
    if (id !== this.searchId) return;
    const p = this.progress;
    if (event.type === "root") {
      Object.assign(p, {
        text: event.text,
        move: event.move,
        index: event.index,
        count: event.count,
        replies: event.replies,
        nodes: event.nodes,
        best: event.best,
        score: event.score,
        scoreWhite: event.scoreWhite,
      });
      if (event.depth) p.depth = event.depth;
    } else if (event.type === "iteration") {
      Object.assign(p, {
        depth: event.depth,
        seldepth: event.seldepth,
        score: event.score,
        scoreWhite: event.scoreWhite,
        nodes: event.nodes,
        nps: event.nps,
        elapsedMs: event.elapsedMs,
        pv: event.pv,
      });
      if (event.scoreWhite && kindRecordsEval(this.searching)) this.evals[this.searchPly] = event.scoreWhite;
      if (event.pv?.[0]) p.best = event.pv[0];
      if (event.pvUci?.[0]) p.bestUci = event.pvUci[0];
    } else return;
    if (p.scoreWhite) this.evalBar.set(p.scoreWhite);
    this.thinkingPanel.show({ ...p });
    const { bestUci, ...detail } = p;
    this.emit("thinking", { ...detail });
  }

  onResult(id, kind, ply, result) {
    if (id !== this.searchId) return;
    this.searching = null;
    if (result.scoreWhite) {
      this.evals[ply] = result.scoreWhite;
      this.evalBar.set(result.scoreWhite);
    }
    if (result.book) {
      this.thinkingPanel.setMode("book", "Book move");
      this.fields.line.textContent = `Played ${result.bestSan ?? result.best} from the opening book.`;
    }
    if (kind === "hint") {
      this.showHint(result.best);
      this.refreshIdle();
      return;
    }
    if (kind === "analyse") {
      this.thinkingPanel.setMode("idle", "Analysis done");
      return;
    }
    if (result.resign) {
      const color = this.game.turn();
      this.game.resign(color);
      this.fields.line.textContent = "Homeostat resigns.";
      this.save();
      this.finish();
      return;
    }
    if (!result.best) return this.refreshIdle();
    this.playMove(result.best, "engine");
  }

  /** Draws the hint arrow for a UCI move. */
  showHint(uci) {
    if (!uci) return;
    this.boardState.arrows = [{ from: uci.slice(0, 2), to: uci.slice(2, 4) }];
    this.renderer.requestDraw();
  }

  // ——— Panels ———

  /** Redraws the board and panels from the game; `animate` slides moved pieces. */
  refresh(animate) {
    if (!this.game) return;
    const live = this.viewPly === null;
    const state = this.boardState;
    if (live) {
      this.renderer.setPieces(normalizeBoard(this.game.board()), animate);
      state.lastMove = this.game.lastMove() ?? null;
      state.check = this.game.checkSquare() ?? null;
    } else {
      this.renderer.setPieces(normalizeBoard(this.game.boardAt(this.viewPly)), animate);
      state.lastMove = this.game.lastMoveAt(this.viewPly) ?? null;
      state.check = checkSquareOf(this.rules, this.game.fenAt(this.viewPly));
    }
    state.orientation = this.settings.orientation;
    state.interactive = Boolean(this.canMoveNow());
    if (!state.interactive) {
      state.selected = null;
      state.targets = [];
    }
    this.renderer.requestDraw();

    const sans = this.game.historySan();
    const fields = this.game.startFen().split(" ");
    const outcome = this.game.outcome();
    this.moveList.render(sans, live ? sans.length : this.viewPly, fields[1] === "b", Number(fields[5]) || 1, outcome?.result);
    const opening = this.game.openingName();
    const standard = this.game.startFen().startsWith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq");
    let openingText = standard ? "Starting position" : "Set-up position";
    if (opening) openingText = `${opening.eco} · ${opening.name}`;
    else if (sans.length) openingText = standard ? "" : "From a set-up position";
    this.fields.opening.textContent = openingText;
    this.$(".back-to-game").hidden = live;
    const banner = this.$(".board-banner");
    banner.hidden = !outcome || !live;
    if (outcome) banner.textContent = `${RESULT_TEXT[outcome.result] ?? outcome.result} · ${outcome.reason}`;
    const graph = this.$(".graph");
    graph.hidden = !outcome;
    if (outcome) {
      const scores = Array.from({ length: sans.length + 1 }, (_, i) => this.evals[i] ?? null);
      this.graph.set(scores, live ? sans.length : this.viewPly);
    }
    this.refreshIdle();
  }

  /** Status line, player bars and which controls are usable. */
  refreshBars() {
    if (!this.game) return;
    const outcome = this.game.outcome();
    const white = this.game.turn() === "w";
    let status;
    if (this.viewPly !== null) status = `Viewing move ${Math.ceil(this.viewPly / 2) || 0} · read-only`;
    else if (outcome) status = `${RESULT_TEXT[outcome.result] ?? outcome.result} by ${outcome.reason}`;
    else if (this.searching === "play") status = `Homeostat is thinking (${white ? "White" : "Black"})…`;
    else if (this.humanToMove()) status = this.settings.player === "both" ? `${white ? "White" : "Black"} to move` : "Your move";
    else status = `${white ? "White" : "Black"} to move${this.paused ? " · auto-play paused" : ""}`;
    if (!outcome && this.viewPly === null && this.game.inCheck()) status += " · check";
    this.showStatus(status);
    this.dataset.over = outcome ? "true" : "false";

    const p = this.settings.player;
    const name = (color) => {
      if (this.readonly) return capital(color);
      const human = p === "both" || p === color;
      return human ? (p === "both" ? capital(color) : "You") : `Homeostat · level ${this.settings.level}`;
    };
    const bottom = this.settings.orientation;
    const top = bottom === "white" ? "black" : "white";
    this.fields["top-name"].textContent = name(top);
    this.fields["bottom-name"].textContent = name(bottom);
    const toMove = white ? "white" : "black";
    for (const [where, color] of [["top", top], ["bottom", bottom]]) {
      const bar = this.$(`.player-bar.${where}`);
      bar.dataset.color = color;
      bar.dataset.active = String(!outcome && toMove === color);
      this.fields[`${where}-note`].textContent = !outcome && toMove === color && this.searching === "play" ? "thinking…" : "";
    }

    this.$(".layout").dataset.player = p;
    const vsComputer = p === "white" || p === "black";
    const enable = (action, on) => {
      const button = this.$(`.toolbar [data-action="${action}"]`);
      if (button) button.disabled = !on;
    };
    const history = this.game.ply();
    enable("undo", history > 0);
    enable("redo", this.game.redoCount() > 0);
    enable("move-now", this.searching === "play");
    enable("hint", !this.readonly && !outcome && this.humanToMove() && this.viewPly === null);
    enable("draw", vsComputer && !outcome && !this.readonly);
    this.refreshViewer();
    enable("resign", p !== "none" && !outcome);
    const autoplay = this.$('.toolbar [data-action="autoplay"]');
    autoplay.setAttribute("aria-pressed", String(p === "none" && !this.paused));
    const mute = this.$('.toolbar [data-action="mute"]');
    mute.setAttribute("aria-pressed", String(!this.sounds.muted));
    mute.querySelector("svg").outerHTML = this.sounds.muted ? ICONS.mute : ICONS.sound;
  }

  /**
   * Steps through the game's history view ("first", "prev", "next", "last": the ◀ ▶ buttons and ← → Home End)
   * through the same view() the move list uses, and says which move is shown. The game itself is not changed.
   */
  step(action) {
    const last = this.game.ply();
    const shown = this.viewPly ?? last;
    const target = Math.max(0, Math.min(last, { first: 0, prev: shown - 1, next: shown + 1, last }[action]));
    this.view(target);
    const ply = this.viewPly ?? this.game.ply();
    const blackFirst = this.game.startFen().split(" ")[1] === "b";
    const mover = (ply % 2 === 1) !== blackFirst ? "White" : "Black";
    this.announce(ply === 0 ? "Start position" : `${mover} played ${this.game.historySan()[ply - 1]} (move ${ply} of ${this.game.ply()})`);
  }

  /** The viewer's buttons: which steps are possible from the shown position. */
  refreshViewer() {
    if (!this.readonly) return;
    const shown = this.viewPly ?? this.game.ply();
    for (const [action, on] of [["first", shown > 0], ["prev", shown > 0], ["next", shown < this.game.ply()], ["last", shown < this.game.ply()]]) {
      this.$(`.viewer [data-action="${action}"]`).disabled = !on;
    }
  }

  /** Panel heading when no search runs. */
  refreshIdle() {
    if (!this.searching && this.game) {
      const outcome = this.game.outcome();
      const mode = this.thinkingPanel.root.dataset.mode;
      if (outcome) this.thinkingPanel.setMode("idle", "Game over");
      else if (mode !== "book") this.thinkingPanel.setMode("idle", this.engineLoading ? "Engine loading" : "Engine idle");
    }
    this.refreshBars();
  }

  showStatus(text) {
    this.fields.status.textContent = text;
  }

  /** Applies theme and coordinate settings to the board. */
  applyBoardSettings() {
    this.boardState.boardTheme = this.settings.boardTheme;
    this.boardState.pieceTheme = this.settings.pieceTheme;
    this.boardState.coordinates = this.settings.coordinates;
    this.boardState.orientation = this.settings.orientation;
    this.renderer.requestDraw();
  }

  applySettings(changes) {
    Object.assign(this.settings, changes);
    this.sounds.muted = !this.settings.sound;
    this.applyBoardSettings();
    this.saveSettingsNow();
    if ("analysis" in changes && this.settings.player === "both") this.think();
    this.refreshBars();
  }

  // ——— Views, storage, events ———

  /** Shows the position after `ply` moves read-only; the last ply goes back to the game. */
  view(ply) {
    if (!this.game) return;
    const last = this.game.ply();
    if (ply >= last) return this.live();
    this.cancelSearch();
    this.boardState.arrows = [];
    this.viewPly = Math.max(0, ply);
    this.refresh(true);
  }

  /** Back to the live game from a read-only view. */
  live() {
    if (this.viewPly === null) return;
    this.viewPly = null;
    this.refresh(true);
    this.think();
  }

  save() {
    if (!this.persist || !this.game) return;
    const outcome = this.game.outcome();
    const ending = outcome && (outcome.reason === "resignation" || outcome.reason === "agreement") ? outcome : null;
    saveGame({
      startFen: this.game.startFen(),
      moves: this.game.historyUci(),
      ending: ending && { result: ending.result, reason: ending.reason },
      evals: this.evals,
    });
  }

  saveSettingsNow() {
    if (this.persist) saveSettings(this.settings);
  }

  /** Fires a bubbling, composed CustomEvent. */
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /** Reports an error as an `error` event and in the status line. */
  fail(message) {
    this.lastError = message;
    this.emit("error", { message });
    if (this.fields) {
      this.fields.status.textContent = message;
      this.fields.status.dataset.error = "true";
      clearTimeout(this.errorTimer);
      this.errorTimer = setTimeout(() => {
        delete this.fields.status.dataset.error;
        this.refreshBars();
      }, 2500);
    }
  }

  /**
   * Replaces the game with the one `make` builds; returns an error message (game untouched) or null.
   * @param {() => any} make
   * @param {boolean} resetEvals
   * @param {() => void} [configure] runs once the new game is valid, before anything is shown
   */
  replaceGame(make, resetEvals, configure) {
    let game;
    try {
      game = make();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.fail(message);
      return message;
    }
    this.cancelSearch();
    configure?.();
    this.game?.free?.();
    this.game = game;
    this.viewPly = null;
    this.paused = false;
    this.boardState.arrows = [];
    this.boardState.promotion = null;
    this.boardState.selected = null;
    this.boardState.targets = [];
    if (resetEvals) this.evals = [];
    this.engine?.newGame?.();
    this.refresh(false);
    this.save();
    if (this.isOver()) this.finish();
    else this.think();
    return null;
  }

  startFromDialog(options) {
    const side = options.side === "random" ? (Math.random() < 0.5 ? "white" : "black") : options.side;
    const player = options.mode === "hvh" ? "both" : options.mode === "cvc" ? "none" : side;
    return this.replaceGame(
      () => new this.rules.Game(options.fen || undefined),
      true,
      () => {
        Object.assign(this.settings, { level: options.level, think: options.think, book: options.book, player });
        if (player === "white" || player === "black") this.settings.orientation = player;
        this.saveSettingsNow();
        this.applyBoardSettings();
      },
    );
  }

  importText(text) {
    if (!text.trim()) return "Paste a PGN or a FEN first.";
    return this.replaceGame(() => this.rules.Game.load(text), true);
  }

  /** Runs a toolbar or keyboard action; returns whether it was handled. */
  runAction(action, fromKeyboard) {
    if (!this.game) return false;
    switch (action) {
      case "new":
        this.dialogs.show("new");
        return true;
      case "undo":
        return this.undo() || fromKeyboard;
      case "redo":
        return this.redo() || fromKeyboard;
      case "flip":
        this.flip();
        return true;
      case "move-now":
        this.moveNow();
        return true;
      case "hint":
        this.hint();
        return true;
      case "autoplay":
        this.toggleAutoplay();
        return true;
      case "deeper":
        this.setLevel(this.settings.level + 1);
        return true;
      case "shallower":
        this.setLevel(this.settings.level - 1);
        return true;
      case "draw":
        this.offerDraw();
        return true;
      case "resign":
        this.resign();
        return true;
      case "import-export":
        this.dialogs.show("io");
        return true;
      case "settings":
        this.dialogs.show("settings");
        return true;
      case "mute":
        this.applySettings({ sound: this.sounds.muted });
        return true;
      case "help":
        this.dialogs.show("help");
        return true;
      case "live":
        this.live();
        return true;
      case "first":
      case "prev":
      case "next":
      case "last":
        this.step(action);
        return true;
      default:
        return false;
    }
  }

  setPlayer(player) {
    if (!["white", "black", "both", "none"].includes(player)) return;
    this.settings.player = player;
    this.paused = false;
    this.saveSettingsNow();
    this.refresh(false);
    this.think();
  }

  setLevel(level) {
    const clamped = Math.max(1, Math.min(8, Math.round(level) || 1));
    this.settings.level = clamped;
    this.saveSettingsNow();
    this.refreshBars();
    this.fields.line.textContent = `Level ${clamped} from the next move.`;
  }

  setOrientation(side) {
    if (side !== "white" && side !== "black") return;
    this.settings.orientation = side;
    this.saveSettingsNow();
    this.applyBoardSettings();
    this.refreshBars();
  }

  toggleAutoplay() {
    if (this.settings.player === "none") {
      if (this.paused) {
        this.paused = false;
        this.think();
        return;
      }
      this.setPlayer(this.previousPlayer ?? "white");
    } else {
      this.previousPlayer = this.settings.player;
      this.setPlayer("none");
    }
  }

  hint() {
    if (this.readonly || this.isOver() || !this.humanToMove() || this.viewPly !== null) return;
    if (!this.engine) {
      this.wantHint = true;
      return void this.startEngine();
    }
    if (this.searching === "analyse" && this.progress.bestUci) return this.showHint(this.progress.bestUci);
    this.search("hint", { level: 8, movetimeMs: 1000, useBook: this.settings.book });
  }

  async offerDraw() {
    if (this.readonly || this.isOver()) return;
    if (!this.engine) await this.startEngine();
    if (!this.engine) return;
    let accepted = false;
    try {
      accepted = await this.engine.acceptsDraw(this.game.startFen(), this.game.historyUci());
    } catch (err) {
      this.fail(`engine: ${err.message}`);
      return;
    }
    if (accepted) {
      this.cancelSearch();
      this.game.agreeDraw();
      this.fields.line.textContent = "Homeostat accepts the draw.";
      this.save();
      this.finish();
    } else {
      this.fields.line.textContent = "Homeostat declines the draw and plays on.";
      this.showStatus("Draw offer declined");
    }
  }

  resign() {
    if (this.isOver()) return;
    const p = this.settings.player;
    const color = p === "white" ? "w" : p === "black" ? "b" : this.game.turn();
    this.cancelSearch();
    this.game.resign(color);
    this.save();
    this.finish();
  }

  // ——— Public API ———

  /**
   * Plays a move given in UCI or SAN; returns false and fires `error` when it is illegal.
   * @param {string} m
   */
  move(m) {
    if (!this.game) return false;
    if (this.readonly) {
      this.fail("this player is read-only (a viewer): it takes no moves");
      return false;
    }
    return this.playMove(String(m), "human") !== null;
  }

  /** Starts a new game from the standard position with the current settings. */
  newGame() {
    if (!this.rules) return;
    this.replaceGame(() => new this.rules.Game(), true);
  }

  /** Takes back a move (back to the human's turn against the computer); returns whether one was taken back. */
  undo() {
    if (!this.game || this.game.ply() === 0) return false;
    this.cancelSearch();
    this.game.undo();
    const p = this.settings.player;
    if ((p === "white" || p === "black") && !this.humanToMove() && this.game.ply() > 0) this.game.undo();
    if (p === "none") this.paused = true;
    this.afterHistoryChange();
    return true;
  }

  /** Replays a move taken back (both moves against the computer); returns whether one was replayed. */
  redo() {
    if (!this.game || !this.game.redoCount()) return false;
    this.cancelSearch();
    this.game.redo();
    const p = this.settings.player;
    if ((p === "white" || p === "black") && !this.humanToMove() && this.game.redoCount() > 0) this.game.redo();
    this.afterHistoryChange();
    return true;
  }

  afterHistoryChange() {
    this.viewPly = null;
    this.boardState.arrows = [];
    this.boardState.selected = null;
    this.boardState.targets = [];
    this.refresh(true);
    this.save();
    this.think();
  }

  /** Turns the board around. */
  flip() {
    this.setOrientation(this.settings.orientation === "white" ? "black" : "white");
  }

  /** Makes the engine play its best move so far, or resumes paused auto-play. */
  moveNow() {
    if (this.searching === "play") this.engine?.moveNow?.();
    else if (this.paused) {
      this.paused = false;
      this.think();
    }
  }

  /**
   * Loads a FEN or PGN as a new game; returns false and fires `error` (game untouched) when it cannot be read.
   * @param {string} text
   */
  load(text) {
    if (!this.rules) return false;
    return this.replaceGame(() => this.rules.Game.load(String(text)), true) === null;
  }

  /** The current position in FEN. */
  get fen() {
    return this.game?.fen() ?? "";
  }

  /** The game in PGN. */
  get pgn() {
    if (!this.game) return "";
    const p = this.settings.player;
    const name = (color) => (p === "both" || p === color ? "Human" : `Homeostat (level ${this.settings.level})`);
    const date = new Date().toISOString().slice(0, 10).replaceAll("-", ".");
    return this.game.pgn({ Event: "Homeostat game", Site: location.host || "Homeostat", Date: date, White: name("white"), Black: name("black") });
  }

  /** The side shown at the bottom: "white" or "black". */
  get orientation() {
    return this.settings.orientation;
  }

  /** The side to move: "w" or "b". */
  get turn() {
    return this.game?.turn() ?? "w";
  }

  /** `{over, result, reason}` of the game. */
  get status() {
    const outcome = this.game?.outcome();
    return outcome ? { over: true, result: outcome.result, reason: outcome.reason } : { over: false, result: "*", reason: null };
  }

  /** Whether the engine is searching for its move. */
  get thinking() {
    return this.searching === "play";
  }
}

/** 64 piece letters from whatever `board()` returns (array or FEN placement). */
function normalizeBoard(value) {
  if (Array.isArray(value)) return value.map((piece) => piece || "");
  if (typeof value === "string" && value.length === 64) return [...value].map((c) => (c === "." || c === " " ? "" : c));
  const pieces = new Array(64).fill("");
  String(value ?? "")
    .split(" ")[0]
    .split("/")
    .forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (ch >= "1" && ch <= "8") file += Number(ch);
        else pieces[(7 - i) * 8 + file++] = ch;
      }
    });
  return pieces;
}

/** The checked king's square in a FEN, through a temporary Game. */
function checkSquareOf(rules, fen) {
  if (!fen) return null;
  const game = new rules.Game(fen);
  const square = game.checkSquare() ?? null;
  game.free?.();
  return square;
}

/** Whether a search of this kind speaks for the position's evaluation (hints are short and shallow). */
function kindRecordsEval(kind) {
  return kind === "play" || kind === "analyse";
}

/** "white" → "White". */
function capital(word) {
  return word[0].toUpperCase() + word.slice(1);
}

if (!customElements.get("homeostat-chess")) customElements.define("homeostat-chess", HomeostatChess);
