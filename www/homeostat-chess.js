// <homeostat-chess>: a chess player that shows its thinking. The element keeps the attributes, the DOM, the panels
// and the input; the game and the engine belong to the game controller (game/controller.js), and the board is
// changed only through its API (board/board-api.js). Data flows one way: input → controller → events → view.

import { createBoardState, squareIndex } from "./board/board-state.js";
import { BoardRenderer } from "./board/board-render.js";
import { createBoardApi } from "./board/board-api.js";
import { attachBoardInput } from "./board/board-input.js";
import { attachBoardKeys } from "./board/board-keys.js";
import { GameController } from "./game/controller.js";
import { DEFAULT_SETTINGS, validGame, validSettings } from "./game/settings.js";
import { ATTRIBUTES, readChoice, readLevel, readMillis, readSeconds, readSeed, readSize, readSwitch } from "./ui/attributes.js";
import { Dialogs } from "./ui/dialogs.js";
import { EvalBar } from "./ui/eval-bar.js";
import { EvalGraph } from "./ui/eval-graph.js";
import { ignoredKey, listenForShortcuts, shortcutAction } from "./ui/keyboard.js";
import { MoveList } from "./ui/move-list.js";
import { outcomeText, openingLine, renderBars, RESULT_TEXT, statusLine } from "./ui/panels.js";
import { Sounds } from "./ui/sounds.js";
import { loadGame, loadSettings, saveGame, saveSettings } from "./ui/storage.js";
import { TEMPLATE } from "./ui/template.js";
import { ThinkingPanel } from "./ui/thinking-panel.js";
import { loadRules } from "./engine/rules.js";

/** Assets, resolved next to this module so the element works from any folder. */
const STYLE_URL = new URL("./homeostat-chess.css", import.meta.url).href;
const ENGINE_URL = new URL("./engine/engine-client.js", import.meta.url).href;

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
/** Attributes that shape the layout only; applied on connection, before the rules load. */
const LAYOUT_ATTRIBUTES = ["size", "show-thinking", "show-moves", "show-controls"];
/** The on/off attributes and the setting or layout flag each sets. */
const SWITCHES = { sound: "sound", coordinates: "coordinates", "show-moves": "showMoves", "show-controls": "showControls", readonly: "readonly" };
/** What the thinking panel's heading says for each kind of search. */
const SEARCH_CAPTIONS = { play: "Homeostat is thinking", analyse: "Analysing", hint: "Looking for a hint" };

let styleSheet = null;
/** The element's stylesheet as a constructable sheet, or null where those are unsupported. */
function loadStyleSheet() {
  if (!("adoptedStyleSheets" in Document.prototype && "replace" in CSSStyleSheet.prototype)) return Promise.resolve(null);
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
    this.settings = null;
    this.sounds = new Sounds();
    /** The `persist` attribute: null (nothing kept) or the storage name ("" for the page's default). */
    this.persistName = null;
    this.readonly = false;
    /** @type {GameController | null} */
    this.controller = null;
    /** Ply shown read-only from the history, or null for the live game. */
    this.viewPly = null;
    this.thinkBounds = { min: 500, max: 5000 };
    this.cleanups = [];
    /** Resolves when the rules are loaded and the first position is shown. */
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  connectedCallback() {
    if (!this.settings) {
      this.persistName = this.getAttribute("persist");
      const stored = this.persistName === null ? {} : validSettings(loadSettings(this.persistName));
      this.settings = { ...DEFAULT_SETTINGS, ...stored };
      this.sounds.muted = !this.settings.sound;
    }
    if (!this.shadowRoot) this.build();
    this.cleanups.push(listenForShortcuts(this, (event) => this.handleShortcut(event)));
    for (const name of LAYOUT_ATTRIBUTES) this.applyAttribute(name, true);
    if (!this.controller) this.start();
    else {
      this.board.fit();
      this.controller.setConnected(true);
    }
  }

  disconnectedCallback() {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.controller?.setConnected(false);
  }

  attributeChangedCallback(name, old, value) {
    if (this.controller && old !== value) this.applyAttribute(name, false);
  }

  /**
   * Applies one attribute; `initial` while starting (settings only). A bad value fires `error` and changes nothing.
   * @param {string} name
   * @param {boolean} initial
   */
  applyAttribute(name, initial) {
    const text = this.getAttribute(name);
    const use = (reading, apply) => (reading.error ? this.fail(reading.error) : apply(reading.value));
    const layout = this.$(".layout");
    if (name in SWITCHES) {
      const fallback = name === "readonly" ? false : name === "sound" || name === "coordinates" ? (initial ? this.settings[name] : true) : true;
      return use(readSwitch(name, text, fallback), (on) => this.applySwitch(name, on, initial));
    }
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
        this.readThinkTime(initial);
        break;
      case "seed":
        if (text === null) this.controller?.setSeed(null);
        else use(readSeed(text), (v) => this.controller?.setSeed(v));
        break;
      case "theme":
        // Matched without regard to case, here and in the stylesheet (`[theme="dark" i]`).
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
      case "fen":
        // A pgn attribute, when there is one, wins over fen.
        if (!initial && text && !this.getAttribute("pgn")) this.replaceGame(() => new this.rules.Game(text));
        break;
      case "pgn":
        if (!initial && text) this.replaceGame(() => this.rules.Game.load(text));
        else if (!initial && this.getAttribute("fen")) this.replaceGame(() => new this.rules.Game(this.getAttribute("fen")));
        break;
    }
  }

  /** An on/off attribute's value, applied. */
  applySwitch(name, on, initial) {
    const layout = this.$(".layout");
    if (name === "sound" || name === "coordinates") {
      if (initial) this.settings[name] = on;
      else this.applySettings({ [name]: on }, false);
    } else if (name === "readonly") {
      this.readonly = on;
      layout.dataset.readonly = String(on);
      this.$(".viewer").hidden = !on;
      if (!initial) {
        this.controller.setReadonly(on);
        this.refresh(false);
      }
    } else layout.dataset[SWITCHES[name]] = String(on);
  }

  /** Reads movetime, or think-min / think-max, into the think setting; with none of them, timing is by level. */
  readThinkTime(initial) {
    const movetime = this.getAttribute("movetime");
    const min = this.getAttribute("think-min");
    const max = this.getAttribute("think-max");
    let think = "level";
    if (movetime !== null) {
      const reading = readMillis("movetime", movetime);
      if (reading.error) return this.fail(reading.error);
      think = String(reading.value);
    } else if (min !== null || max !== null) {
      const lo = min === null ? { value: 500 } : readSeconds("think-min", min);
      const hi = max === null ? { value: Math.max(5000, lo.value ?? 0) } : readSeconds("think-max", max);
      if (lo.error || hi.error) return this.fail(lo.error ?? hi.error);
      if (lo.value > hi.value) return this.fail(`think-min (${min} s) is above think-max (${max} s)`);
      this.thinkBounds = { min: lo.value, max: hi.value };
      think = "adaptive";
    } else if (initial) return; // No time attributes at start: the stored or default setting stands.
    this.settings.think = think;
    this.controller?.configure({ think, thinkMinMs: this.thinkBounds.min, thinkMaxMs: this.thinkBounds.max });
  }

  /** Reads the board colour custom properties set on the element (at start, on `theme`; call after changing them). */
  readColors() {
    if (!this.board) return;
    const style = getComputedStyle(this);
    const colors = {};
    for (const [field, property] of Object.entries(COLOR_PROPERTIES)) {
      const value = style.getPropertyValue(property).trim();
      if (value) colors[field] = value;
    }
    this.board.setAppearance({ colors });
  }

  /**
   * Runs the shortcut for a key press, as if it were pressed inside this player; returns whether it was used.
   * @param {KeyboardEvent} event
   */
  handleShortcut(event) {
    if (!this.controller || this.dialogs.open) return false;
    if (this.readonly) {
      if (event.key === "f" || event.key === "F") return this.runAction("flip", true);
      const step = VIEWER_KEYS[event.key];
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
    this.$ = (selector) => root.querySelector(selector);
    this.fields = Object.fromEntries([...root.querySelectorAll(".layout [data-field]")].map((el) => [el.dataset.field, el]));
    const renderer = new BoardRenderer(this.$(".board-canvas"), createBoardState());
    this.board = createBoardApi(renderer);
    /** The board's view state, for reading (tests, curious pages); it is changed only through `board`. */
    this.boardState = renderer.state;
    const hooks = {
      canSelect: (square) => this.canSelect(square),
      targetsFor: (square) => this.targetsFor(square),
      onMove: (from, to, keyboard) => this.onBoardMove(from, to, keyboard),
      onPromotion: (piece) => this.onPromotion(piece),
      enabled: () => !this.readonly,
      announce: (text) => this.announce(text),
    };
    attachBoardInput(renderer, hooks);
    attachBoardKeys(renderer, { ...hooks, onMove: (from, to) => this.onBoardMove(from, to, true) });
    this.$(".san-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.playTyped();
    });
    this.thinkingPanel = new ThinkingPanel(this.$(".thinking"));
    this.evalBar = new EvalBar(this.$(".evalbar"));
    this.moveList = new MoveList(this.$(".move-list"), (ply) => this.view(ply));
    this.graph = new EvalGraph(this.$(".graph-canvas"), (ply) => this.view(ply));
    this.dialogs = new Dialogs(root, {
      startGame: (options) => this.startFromDialog(options),
      importText: (text) => (text.trim() ? this.replaceGame(() => this.rules.Game.load(text)) : "Paste a PGN or a FEN first."),
      pgn: () => this.pgn,
      fen: () => this.fen,
      settings: () => this.settings,
      levelElo: (level) => this.rules?.levelElo(level),
      applySettings: (changes) => this.applySettings(changes),
      closed: () => this.$(".board-canvas").focus?.({ preventScroll: true }),
    });
    root.addEventListener("click", (event) => {
      const button = event.target.closest(".layout [data-action]");
      if (!button || button.disabled) return;
      this.sounds.unlock();
      this.runAction(button.dataset.action, false);
    });
    // Audio may start in a user gesture: a mouse press counts on pointerdown, a tap only when the finger lifts.
    this.addEventListener("pointerdown", () => this.sounds.unlock());
    this.addEventListener("pointerup", () => this.sounds.unlock());
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
      requestAnimationFrame(() => this.board.fit());
    });
  }

  /** Loads the rules, reads the attributes, and hands the saved or given game to a new controller. */
  async start() {
    try {
      this.rules = await loadRules();
    } catch (err) {
      this.showStatus(`Could not load the rules module: ${err.message}`, true);
      this.thinkingPanel.setMode("error", "Engine unavailable");
      this.fields.line.textContent = `The player could not start: ${err.message}. Check that the pkg/ folder is next to homeostat.js.`;
      this.dataset.state = "error";
      return;
    }
    for (const name of ATTRIBUTES) if (!LAYOUT_ATTRIBUTES.includes(name) && name !== "fen" && name !== "pgn" && name !== "seed") this.applyAttribute(name, true);
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
    const saved = !fen && !pgn && this.persistName !== null ? validGame(loadGame(this.persistName)) : null;
    if (!game && saved) game = this.restoreGame(saved);
    const seedText = this.getAttribute("seed");
    const seed = seedText === null ? null : (readSeed(seedText).value ?? null);
    if (seedText !== null && seed === null) this.fail(readSeed(seedText).error);
    this.controller = this.createController(seed);
    this.applyBoardSettings();
    this.dataset.state = "ready";
    // A timeline mark, so pages (and tools/measure-web.mjs) can see when the board became playable.
    performance.mark?.("homeostat-ready");
    this.controller.setGame(game ?? new this.rules.Game(), game && saved ? saved.evals : []);
    this.markReady();
  }

  /** The controller, with its events wired to the view. */
  createController(seed) {
    const s = this.settings;
    const controller = new GameController({
      rules: this.rules,
      createEngine: async () => new (await import(ENGINE_URL)).EngineClient(),
      options: { player: s.player, level: s.level, think: s.think, book: s.book, analysis: s.analysis, thinkMinMs: this.thinkBounds.min, thinkMaxMs: this.thinkBounds.max },
      seed,
    });
    controller.readonly = this.readonly;
    controller.connected = this.isConnected;
    const on = (type, handler) => controller.addEventListener(type, (event) => handler(event.detail));
    on("position", ({ animate }) => {
      // A passing error gives way to the new position's status.
      clearTimeout(this.errorTimer);
      delete this.fields.status.dataset.error;
      this.viewPly = null;
      this.board.setArrows([]);
      this.refresh(animate);
      this.save();
    });
    on("move", (detail) => {
      this.sounds.forMove(detail.played);
      if (detail.by === "engine" && this.settings.player !== "none") this.sounds.ding();
      this.announceMove(detail.san);
      this.emit("move", { san: detail.san, uci: detail.uci, fen: detail.fen, by: detail.by });
    });
    on("searchstart", ({ kind }) => {
      this.thinkingPanel.reset();
      this.thinkingPanel.setMode(kind === "play" ? "thinking" : "analysing", SEARCH_CAPTIONS[kind]);
      this.fields.line.textContent = "Thinking…";
      this.refreshBars();
    });
    on("thinking", ({ kind, ...progress }) => {
      if (progress.scoreWhite && kind !== "hint") this.evalBar.set(progress.scoreWhite);
      this.thinkingPanel.show(progress);
      const { bestUci: _uci, ...detail } = progress;
      this.emit("thinking", detail);
    });
    on("searchend", () => this.refreshIdle());
    on("book", ({ san, kind }) => {
      this.thinkingPanel.setMode("book", "Book move");
      this.fields.line.textContent = kind === "hint" ? `Hint from the opening book: ${san}.` : `Played ${san} from the opening book.`;
      if (kind === "play") this.evalBar.book(controller.lastScore);
    });
    on("hint", ({ uci, san }) => {
      this.board.setArrows([{ from: uci.slice(0, 2), to: uci.slice(2, 4) }]);
      this.announce(`Hint: ${san ?? uci}`);
    });
    on("drawoffer", () => this.showOffer(true));
    on("drawanswer", ({ accepted }) => {
      this.fields.line.textContent = accepted ? "Homeostat accepts the draw." : "Homeostat declines the draw and plays on.";
      if (!accepted) this.showStatus("Draw offer declined");
      this.announce(accepted ? "Homeostat accepts the draw" : "Homeostat declines the draw");
    });
    on("gameover", (detail) => {
      this.sounds.end();
      this.board.setArrows([]);
      this.refresh(false);
      if (detail.reason === "resignation" || detail.reason === "agreement") this.announce(outcomeText(detail));
      this.emit("gameover", detail);
    });
    on("engine", () => this.refreshIdle());
    on("error", ({ message }) => this.fail(message));
    on("enginestart", (detail) => this.emit("enginestart", detail));
    on("enginestop", (detail) => this.emit("enginestop", detail));
    return controller;
  }

  /** A saved game replayed, or null when it no longer loads. */
  restoreGame(saved) {
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

  // ——— Board input ———

  /** Whether the human may move now on the live board. */
  canMoveNow() {
    const c = this.controller;
    return Boolean(c?.game) && !this.readonly && this.viewPly === null && !c.isOver() && c.humanToMove() && !this.board.promotion();
  }

  canSelect(square) {
    if (!this.canMoveNow()) return false;
    const piece = this.game.board()[squareIndex(square)];
    return Boolean(piece) && (piece === piece.toUpperCase()) === (this.game.turn() === "w");
  }

  /** Legal destinations of the piece on a square, one per square, with the kind of move. */
  targetsFor(square) {
    const byTarget = new Map();
    for (const move of this.game.legalMovesFrom(square)) {
      if (!byTarget.has(move.to)) byTarget.set(move.to, { to: move.to, kind: move.kind, capture: Boolean(move.capture) });
    }
    return [...byTarget.values()];
  }

  /** A move gesture on the board: plays it, or opens the promotion chooser (keyboard-usable and announced). */
  onBoardMove(from, to, keyboard = false) {
    const moves = this.game.legalMovesFrom(from).filter((m) => m.to === to);
    if (!moves.length) return;
    if (moves.some((m) => m.kind === "promotion" || m.promotion)) {
      this.board.setPromotion({ from, to, white: this.game.turn() === "w", keyboard });
      this.board.setInteractive(false);
      this.announce("Promote to: queen, rook, bishop or knight. Arrow keys choose, Enter confirms, Escape cancels; or press q, r, b or n.");
      return;
    }
    this.controller.move(moves[0].uci, "human");
  }

  onPromotion(piece) {
    const promo = this.board.promotion();
    this.board.setPromotion(null);
    if (piece && promo) this.controller.move(promo.from + promo.to + piece, "human");
    else {
      this.announce("Promotion cancelled");
      this.refresh(false);
    }
  }

  /** Tells screen readers about a move just played: "White played Nf3. Check". */
  announceMove(san) {
    const mover = this.game.turn() === "w" ? "Black" : "White";
    const outcome = this.game.outcome();
    let text = `${mover} played ${san}`;
    if (outcome?.reason === "checkmate") text += `. Checkmate — ${RESULT_TEXT[outcome.result]}`;
    else if (outcome) text += `. ${outcomeText(outcome)}`;
    else if (this.game.inCheck()) text += ". Check";
    this.announce(text);
  }

  /** Puts text in the aria-live region. */
  announce(text) {
    if (this.fields?.announce) this.fields.announce.textContent = text;
  }

  /** Plays the move typed in the move box, or says why it cannot. */
  playTyped() {
    const input = this.$(".san-input");
    const text = input.value.trim();
    let message = "";
    if (!text) message = "Type a move first, such as e4 or Nf3.";
    else if (!this.canMoveNow()) message = this.controller.isOver() ? "The game is over." : "It is not your move.";
    else if (!this.controller.move(text, "human")) message = this.lastError ?? `Not a legal move: ${text}`;
    this.fields["san-error"].textContent = message;
    if (message) this.announce(message);
    else input.value = "";
  }

  // ——— View ———

  /** Redraws the board and panels from the game (or the position viewed); `animate` slides moved pieces. */
  refresh(animate) {
    const game = this.game;
    if (!game) return;
    const live = this.viewPly === null;
    this.board.setPosition(live ? game.board() : game.boardAt(this.viewPly), animate);
    this.board.setLastMove((live ? game.lastMove() : game.lastMoveAt(this.viewPly)) ?? null);
    this.board.setMarks({ check: live ? (game.checkSquare() ?? null) : checkSquareOf(this.rules, game.fenAt(this.viewPly)) });
    this.board.setOrientation(this.settings.orientation);
    this.board.setInteractive(this.canMoveNow());
    const sans = game.historySan();
    const start = game.startFen().split(" ");
    const outcome = game.outcome();
    this.moveList.render(sans, live ? sans.length : this.viewPly, start[1] === "b", Number(start[5]) || 1, outcome?.result);
    this.fields.opening.textContent = openingLine(game);
    this.$(".back-to-game").hidden = live;
    const banner = this.$(".board-banner");
    banner.hidden = !outcome || !live;
    if (outcome) banner.textContent = `${RESULT_TEXT[outcome.result] ?? outcome.result} · ${outcome.reason}`;
    this.$(".graph").hidden = !outcome;
    if (outcome) this.graph.set(Array.from({ length: sans.length + 1 }, (_, i) => this.controller.evals[i] ?? null), live ? sans.length : this.viewPly);
    if (!this.controller.drawOffered) this.showOffer(false);
    this.refreshIdle();
  }

  /** Status line, player bars and which controls work. */
  refreshBars() {
    if (!this.game) return;
    if (!this.fields.status.dataset.error || this.controller.engineState === "failed") {
      const { text, error } = statusLine(this.controller, this.viewPly);
      this.showStatus(text, error);
    }
    this.dataset.over = String(this.controller.isOver());
    renderBars({ $: this.$, fields: this.fields }, this.controller, {
      orientation: this.settings.orientation,
      viewPly: this.viewPly,
      muted: this.sounds.muted,
      readonly: this.readonly,
    });
  }

  /** The thinking panel's heading when no search runs: game over, the engine's failure, or idle. */
  refreshIdle() {
    const c = this.controller;
    const failed = c.engineState === "failed" && !this.readonly;
    this.$(".engine-notice").hidden = !failed;
    if (failed) {
      this.thinkingPanel.setMode("error", "Engine unavailable");
      this.fields.line.textContent = c.engineMessage;
    } else if (!c.searching) {
      const mode = this.thinkingPanel.root.dataset.mode;
      if (c.isOver()) this.thinkingPanel.setMode("idle", "Game over");
      else if (mode !== "book" || this.fields.line.textContent === "Thinking…") {
        this.thinkingPanel.setMode("idle", c.engineState === "loading" ? "Engine loading" : "Engine idle");
      }
      // "Thinking…" belongs to a running search only.
      if (this.fields.line.textContent === "Thinking…") this.fields.line.textContent = c.humanToMove() ? "Make a move on the board." : "Waiting.";
    }
    this.refreshBars();
  }

  /** Shows or hides the engine's draw offer with its Accept and Decline buttons. */
  showOffer(open) {
    this.$(".draw-offer").hidden = !open;
    if (open) this.announce("Homeostat offers a draw. Accept or decline.");
  }

  /**
   * The status line; `error` marks it as a problem.
   * @param {string} text
   * @param {boolean} [error]
   */
  showStatus(text, error = false) {
    this.fields.status.textContent = text;
    if (error) this.fields.status.dataset.error = "true";
    else delete this.fields.status.dataset.error;
  }

  /** Applies board theme, pieces and coordinates. */
  applyBoardSettings() {
    const { boardTheme, pieceTheme, coordinates, orientation } = this.settings;
    this.board.setAppearance({ boardTheme, pieceTheme, coordinates });
    this.board.setOrientation(orientation);
    this.readColors();
  }

  /** Changes settings (from the dialog, a switch attribute or a method), saving them when persisting. */
  applySettings(changes, save = true) {
    Object.assign(this.settings, changes);
    this.sounds.muted = !this.settings.sound;
    if (this.controller) {
      const { player, level, think, book, analysis } = this.settings;
      this.controller.configure({ player, level, think, book, analysis });
    }
    this.applyBoardSettings();
    if (save) this.saveSettingsNow();
    if (this.controller) this.refresh(false);
  }

  /** Shows the position after `ply` moves read-only; the last ply goes back to the game. */
  view(ply) {
    if (!this.game) return;
    if (ply >= this.game.ply()) return this.live();
    this.viewPly = Math.max(0, ply);
    this.controller.setViewing(true);
    this.board.setArrows([]);
    this.refresh(true);
  }

  /** Back to the live game from a read-only view. */
  live() {
    if (this.viewPly === null) return;
    this.viewPly = null;
    this.refresh(true);
    this.controller.setViewing(false);
  }

  /** Steps through the history view ("first", "prev", "next", "last") and says which move is shown. */
  step(action) {
    const last = this.game.ply();
    const shown = this.viewPly ?? last;
    this.view(Math.max(0, Math.min(last, { first: 0, prev: shown - 1, next: shown + 1, last }[action])));
    const ply = this.viewPly ?? last;
    const blackFirst = this.game.startFen().split(" ")[1] === "b";
    const mover = (ply % 2 === 1) !== blackFirst ? "White" : "Black";
    this.announce(ply === 0 ? "Start position" : `${mover} played ${this.game.historySan()[ply - 1]} (move ${ply} of ${last})`);
  }

  save() {
    if (this.persistName === null || !this.game) return;
    const outcome = this.game.outcome();
    const ending = outcome && (outcome.reason === "resignation" || outcome.reason === "agreement") ? outcome : null;
    saveGame(this.persistName, {
      startFen: this.game.startFen(),
      moves: this.game.historyUci(),
      ending: ending && { result: ending.result, reason: ending.reason },
      evals: this.controller.evals,
    });
  }

  saveSettingsNow() {
    if (this.persistName !== null) saveSettings(this.persistName, this.settings);
  }

  /** Fires a bubbling, composed CustomEvent. */
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /** Reports an error in the status line (for a few seconds) and as an `error` event. */
  fail(message) {
    this.lastError = message;
    this.emit("error", { message });
    if (!this.fields) return;
    this.showStatus(message, true);
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => {
      delete this.fields.status.dataset.error;
      this.refreshBars();
    }, 2500);
  }

  /** Replaces the game with the one `make` builds; returns an error message (game untouched) or null. */
  replaceGame(make, configure) {
    let game;
    try {
      game = make();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.fail(message);
      return message;
    }
    configure?.();
    this.board.setPromotion(null);
    this.controller.setGame(game);
    return null;
  }

  startFromDialog(options) {
    const side = options.side === "random" ? (Math.random() < 0.5 ? "white" : "black") : options.side;
    const player = options.mode === "hvh" ? "both" : options.mode === "cvc" ? "none" : side;
    return this.replaceGame(
      () => new this.rules.Game(options.fen || undefined),
      () => this.applySettings({ level: options.level, think: options.think, book: options.book, player, ...(side === player ? { orientation: player } : {}) }),
    );
  }

  /** Runs a toolbar or keyboard action; returns whether it was handled. A disabled button's action does nothing. */
  runAction(action, fromKeyboard) {
    if (!this.controller) return false;
    const button = this.$(`.layout [data-action="${action}"]`);
    if (button?.disabled) return fromKeyboard;
    const c = this.controller;
    const actions = {
      new: () => this.dialogs.show("new"),
      undo: () => this.undo(),
      redo: () => this.redo(),
      flip: () => this.flip(),
      "move-now": () => this.moveNow(),
      hint: () => this.hint(),
      autoplay: () => this.toggleAutoplay(),
      deeper: () => this.setLevel(this.settings.level + 1),
      shallower: () => this.setLevel(this.settings.level - 1),
      draw: () => this.offerDraw(),
      resign: () => this.resign(),
      "import-export": () => this.dialogs.show("io"),
      settings: () => this.dialogs.show("settings"),
      mute: () => this.applySettings({ sound: this.sounds.muted }),
      help: () => this.dialogs.show("help"),
      live: () => this.live(),
      "accept-draw": () => c.answerDrawOffer(true),
      "decline-draw": () => c.answerDrawOffer(false),
      "retry-engine": () => c.retryEngine(),
      "two-players": () => this.setPlayer("both"),
    };
    if (["first", "prev", "next", "last"].includes(action)) return this.step(action), true;
    if (!actions[action]) return false;
    const used = actions[action]();
    return action === "undo" || action === "redo" ? used || fromKeyboard : true;
  }

  toggleAutoplay() {
    this.controller.toggleAutoplay();
    this.settings.player = this.controller.options.player;
    this.saveSettingsNow();
    this.refresh(false);
  }

  // ——— Public API ———

  /** Plays a move given in UCI or SAN; returns false and fires `error` when it is illegal. */
  move(m) {
    if (!this.controller) return false;
    if (this.readonly) return this.fail("this player is read-only (a viewer): it takes no moves"), false;
    return this.controller.move(String(m), "human") !== null;
  }

  /** Starts a new game from the standard position with the current settings. */
  newGame() {
    if (this.rules) this.replaceGame(() => new this.rules.Game());
  }

  /** Loads a FEN or PGN as a new game; returns false and fires `error` (game untouched) when it cannot be read. */
  load(text) {
    return Boolean(this.rules) && this.replaceGame(() => this.rules.Game.load(String(text))) === null;
  }

  undo() {
    return Boolean(this.controller?.undo());
  }

  redo() {
    return Boolean(this.controller?.redo());
  }

  setPlayer(player) {
    if (!["white", "black", "both", "none"].includes(player)) return;
    this.applySettings({ player });
  }

  setLevel(level) {
    const clamped = Math.max(1, Math.min(8, Math.round(level) || 1));
    this.applySettings({ level: clamped });
    this.fields.line.textContent = `Level ${clamped} from the next move.`;
  }

  setOrientation(side) {
    if (side === "white" || side === "black") this.applySettings({ orientation: side });
  }

  /** Turns the board around. */
  flip() {
    this.setOrientation(this.settings.orientation === "white" ? "black" : "white");
  }

  moveNow() {
    this.controller?.moveNow();
  }

  hint() {
    this.controller?.hint();
  }

  /** Offers the engine a draw (against the engine only); resolves to its answer, or null when none can be made. */
  offerDraw() {
    return this.controller?.canOfferDraw() ? this.controller.offerDraw() : Promise.resolve(null);
  }

  resign() {
    this.controller?.resign();
  }

  /** The wasm Game being played. */
  get game() {
    return this.controller?.game ?? null;
  }

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

  get orientation() {
    return this.settings.orientation;
  }

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
    return Boolean(this.controller?.thinking);
  }

  /** Whether this element's engine worker is running. */
  get engineRunning() {
    return Boolean(this.controller?.engine);
  }

  /** How many engine workers this element has started. */
  get engineStarts() {
    return this.controller?.engineStarts ?? 0;
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

if (!customElements.get("homeostat-chess")) customElements.define("homeostat-chess", HomeostatChess);
