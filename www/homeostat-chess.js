// <homeostat-chess>: a chess player that shows its thinking. The element keeps the attributes, the DOM, the panels
// and the toolbar; the human's board input is ui/board-play.js and the history viewer ui/history-view.js. The game
// and the engine belong to the game controller (game/controller.js), and the board is changed only through its API
// (board/board-api.js). Data flows one way: input → controller → events → view.

import { createBoardState } from "./board/board-state.js";
import { BoardRenderer } from "./board/board-render.js";
import { createBoardApi } from "./board/board-api.js";
import { GameController } from "./game/controller.js";
import { DEFAULT_SETTINGS, parseClock, gameRecord, restoreGame, validGame, validSettings } from "./game/settings.js";
import { ATTRIBUTES, readSeed } from "./ui/attributes.js";
import { applyAttribute, LAYOUT_ATTRIBUTES, readColors } from "./ui/attribute-sync.js";
import { BoardPlay } from "./ui/board-play.js";
import { Dialogs } from "./ui/dialogs.js";
import { EvalBar } from "./ui/eval-bar.js";
import { EvalGraph } from "./ui/eval-graph.js";
import { HistoryView } from "./ui/history-view.js";
import { ignoredKey, listenForShortcuts, shortcutAction } from "./ui/keyboard.js";
import { MoveList } from "./ui/move-list.js";
import { PlayerView } from "./ui/player-view.js";
import { Sounds } from "./ui/sounds.js";
import { loadGame, loadSettings, saveGame, saveSettings } from "./ui/storage.js";
import { hideUntilStyled } from "./ui/stylesheet.js";
import { TEMPLATE } from "./ui/template.js";
import { STAND_INS, ThinkingPanel } from "./ui/thinking-panel.js";
import { loadBook, loadRules } from "./engine/rules.js";
import { sayIfSlow } from "./engine/wasm-support.js";

/** Modules loaded on demand, resolved next to this one so the element works from any folder. */
const ENGINE_URL = new URL("./engine/engine-client.js", import.meta.url).href;
/** The position editor, loaded when first opened (it is not part of the initial download). */
const EDITOR_URL = new URL("./extras/editor.js", import.meta.url).href;
/** The clocks, loaded when a game has a time control. */
const CLOCK_URL = new URL("./extras/clock-view.js", import.meta.url).href;
/** Loaded only when the `memory` attribute is set. */
const MEMORY_URL = new URL("./extras/memory.js", import.meta.url).href;
/** Review, analysis lines and drawn shapes: loaded at their first use. */
const EXTRAS_URL = new URL("./extras/review-view.js", import.meta.url).href;

/** Keys that step through the game in a read-only viewer. */
const VIEWER_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", ArrowUp: "first", ArrowDown: "last" };

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
    /** The human's moves on the board and in the move box (ui/board-play.js). */
    this.play = new BoardPlay(this);
    /** The read-only history viewer (ui/history-view.js). */
    this.history = new HistoryView(this);
    /** The clocks beside the players (extras/clock-view.js), once a time control is set. */
    this.clocks = null;
    /** The opening book's installation (engine/rules.js loadBook), and why it failed if it did. */
    this.bookLoading = null;
    /** @type {Promise<Uint8Array> | null} the book's bytes, handed to engine workers (which take a rejection as no book) */
    this.bookBytes = null;
    /** @type {string | null} */
    this.bookError = null;
    /** @type {string[]} errors met before the first position was shown, which then shows them */
    this.startErrors = [];
    /** Whether the person was told that storage fails (`persist`), which is said once. */
    this.storageWarned = false;
    this.thinkBounds = { min: 500, max: 5000 };
    /** The `memory` attribute's URL, or null (no shared memory). */
    this.memoryUrl = null;
    this.cleanups = [];
    /** The review and analysis panel (extras/review-view.js) once loaded. */
    this.extrasView = null;
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
    // The clock of the side to move runs between moves: leaving the page (a reload, a closed tab) stores its time.
    const leave = () => this.controller?.clock && this.save();
    globalThis.addEventListener?.("pagehide", leave);
    this.cleanups.push(() => globalThis.removeEventListener?.("pagehide", leave));
    for (const name of LAYOUT_ATTRIBUTES) applyAttribute(this, name, true);
    if (!this.controller) this.start();
    else {
      this.board.fit();
      this.controller.setConnected(true);
    }
  }

  disconnectedCallback() {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.clocks?.stop();
    this.controller?.setConnected(false);
  }

  attributeChangedCallback(name, old, value) {
    if (this.controller && old !== value) applyAttribute(this, name, false);
  }

  /** Re-reads the board colour custom properties set on the element (after a script changed them). */
  readColors() {
    readColors(this);
  }

  /**
   * Runs the shortcut for a key press, as if it were pressed inside this player; returns whether it was used.
   * @param {KeyboardEvent} event
   */
  handleShortcut(event) {
    if (!this.controller || this.dialogs.open || typeof event?.key !== "string") return false;
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
    hideUntilStyled(root, () => this.board.fit());
    this.$ = (selector) => root.querySelector(selector);
    /** Redraws the board and panels from the controller (ui/player-view.js). */
    this.screen = new PlayerView(this);
    this.fields = Object.fromEntries([...root.querySelectorAll(".layout [data-field]")].map((el) => [el.dataset.field, el]));
    const renderer = new BoardRenderer(this.$(".board-canvas"), createBoardState());
    this.board = createBoardApi(renderer);
    /** The board's view state, for reading (tests, curious pages); it is changed only through `board`. */
    this.boardState = renderer.state;
    this.play.attach(renderer);
    this.listenForDrawing(this.$(".board-canvas"));
    this.$(".san-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.play.playTyped();
    });
    // Shortcuts skip the move box, but Escape there still takes back a premove typed in it.
    this.$(".san-input").addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.play.cancelPremove("cancelled")) event.preventDefault();
    });
    this.thinkingPanel = new ThinkingPanel(this.$(".thinking"));
    this.evalBar = new EvalBar(this.$(".evalbar"));
    this.moveList = new MoveList(this.$(".move-list"), (ply) => this.history.view(ply));
    this.graph = new EvalGraph(this.$(".graph-canvas"), (ply) => this.history.view(ply));
    this.dialogs = new Dialogs(root, {
      startGame: (options) => this.startFromDialog(options),
      importText: (text, index) => (text.trim() ? this.replaceGame(() => this.rules.Game.load(text, index)) : "Paste a PGN or a FEN first."),
      pgnGames: (text) => this.rules?.Game.pgnGames(text) ?? [],
      pgn: () => this.pgn,
      fen: () => this.fen,
      settings: () => this.settings,
      levelElo: (level) => this.rules?.levelElo(level),
      applySettings: (changes) => this.applySettings(changes),
      closed: () => this.$(".board-canvas").focus?.({ preventScroll: true }),
      resignText: () => this.resignText(),
      resign: () => this.resign(),
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

  /** Loads the rules, reads the attributes, and hands the saved or given game to a new controller. */
  async start() {
    try {
      // On a slow network the board waits for the rules module; after a while the person is told why.
      this.rules = await sayIfSlow(loadRules(), () => {
        this.fields.line.textContent = STAND_INS.slow;
      });
    } catch (err) {
      this.screen.showStatus(`Could not load the rules module: ${err.message}`, true);
      this.thinkingPanel.setMode("error", "Engine unavailable");
      this.fields.line.textContent = `The player could not start: ${err.message}. Check that the pkg/ folder is next to homeostat.js.`;
      this.dataset.state = "error";
      return;
    }
    for (const name of ATTRIBUTES) if (!LAYOUT_ATTRIBUTES.includes(name) && name !== "fen" && name !== "pgn" && name !== "seed") applyAttribute(this, name, true);
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
    if (!game && saved) {
      try {
        game = restoreGame(this.rules, saved, (message) => this.fail(message));
      } catch (err) {
        this.fail(`the saved game could not be restored, so a new one starts: ${err.message}`);
      }
    }
    const seedText = this.getAttribute("seed");
    const seed = seedText === null ? null : (readSeed(seedText).value ?? null);
    if (seedText !== null && seed === null) this.fail(readSeed(seedText).error);
    const Clock = this.settings.clock ? await this.loadClocks() : null;
    // The opening book and names come after the board is playable; the opening line says so if they cannot.
    // The engine worker takes the page's copy of the book rather than downloading it again.
    this.bookBytes = loadBook();
    this.bookLoading = this.bookBytes
      .catch((err) => {
        this.bookError = err.message;
      })
      .then(() => this.controller && this.screen.refresh(false));
    this.controller = this.createController(seed, Clock);
    this.applyBoardSettings();
    this.dataset.state = "ready";
    // A timeline mark, so pages (and tools/measure-web.mjs) can see when the board became playable.
    performance.mark?.("homeostat-ready");
    this.controller.setGame(game ?? new this.rules.Game(), game && saved ? saved.evals : [], game && saved ? saved.clocks : null);
    if (this.startErrors.length) this.showStartErrors();
    else this.noteLoaded(this.game, pgn);
    this.markReady();
    this.extrasFor(this.game);
  }

  /** The controller for this element's settings, its events shown by the view. */
  createController(seed, Clock) {
    const s = this.settings;
    const controller = new GameController({
      rules: this.rules,
      createEngine: async () => new (await import(ENGINE_URL)).EngineClient({ book: this.bookBytes }),
      options: { player: s.player, level: s.level, think: s.think, book: s.book, analysis: s.analysis, clock: (Clock && parseClock(s.clock).value) || null, thinkMinMs: this.thinkBounds.min, thinkMaxMs: this.thinkBounds.max },
      seed,
      Clock,
      memory: this.sharedMemory(),
      book: this.bookLoading,
    });
    controller.readonly = this.readonly;
    controller.connected = this.isConnected;
    // Lines of an analysis show in the extras panel.
    controller.addEventListener("searchstart", (event) => event.detail.kind === "analyse" && this.extras());
    this.screen.connect(controller);
    return controller;
  }

  // ——— View ———

  /** Applies board theme, pieces and coordinates. */
  applyBoardSettings() {
    const { boardTheme, pieceTheme, coordinates, orientation } = this.settings;
    this.board.setAppearance({ boardTheme, pieceTheme, coordinates });
    this.board.setOrientation(orientation);
    readColors(this);
  }

  /** Changes settings (from the dialog, a switch attribute or a method), saving them when persisting. */
  applySettings(changes, save = true) {
    Object.assign(this.settings, changes);
    this.sounds.muted = !this.settings.sound;
    if (this.controller) {
      const { player, level, think, book, analysis } = this.settings;
      this.controller.configure({ player, level, think, book, analysis });
      if ("clock" in changes) this.useClock(this.settings.clock);
    }
    this.applyBoardSettings();
    if (save) this.saveSettingsNow();
    if (this.controller) this.screen.refresh(false);
  }

  /** The ChessClock class, loading the clocks (and their view) on first use; null when they cannot load. */
  async loadClocks() {
    try {
      const module = await import(CLOCK_URL);
      this.clocks ??= new module.ClockView(this);
      return module.ChessClock;
    } catch (err) {
      this.fail(`the clocks could not load: ${err.message}`);
      return null;
    }
  }

  /** Applies a `clock` setting ("5+3", or "" for none) to the game. */
  async useClock(text) {
    const control = text ? (parseClock(text).value ?? null) : null;
    const Clock = control ? await this.loadClocks() : null;
    if (this.settings.clock === text) this.controller.setClock(Clock && control, Clock);
  }

  /** Stores the game when persisting. */
  save() {
    if (this.persistName !== null && this.game) this.storageFailed(saveGame(this.persistName, gameRecord(this.game, this.controller.evals, this.controller.clock)));
  }

  saveSettingsNow() {
    if (this.persistName !== null) this.storageFailed(saveSettings(this.persistName, this.settings));
  }

  /** Tells the person, once, that the browser does not keep what `persist` asks it to (`problem`: why, or null). */
  storageFailed(problem) {
    if (!problem || this.storageWarned) return;
    this.storageWarned = true;
    this.fail(`this browser does not keep the game for the next visit: ${problem}`);
  }

  /**
   * Fires a bubbling, composed CustomEvent; `error` stays on the element, as the DOM's own error events do, since one
   * reaching the window would run the page's `window.onerror` (and any error monitoring) for a refused move.
   */
  emit(type, detail) {
    const bubbles = type !== "error";
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles, composed: bubbles }));
  }

  /**
   * Reports an error in the status line (for a few seconds) and as an `error` event. Before the first position is
   * shown, which would write over it, the message waits for it (see {@link showStartErrors}).
   */
  fail(message) {
    this.lastError = message;
    this.emit("error", { message });
    if (!this.game) this.startErrors.push(message);
    else this.showError(message, 2500);
  }

  /** Shows the errors met while starting (bad attributes, a saved game that no longer plays), for ten seconds. */
  showStartErrors() {
    const messages = this.startErrors.splice(0);
    if (messages.length) this.showError(messages.join(" · "), 10_000);
  }

  /** Shows `message` in the status line, marked as an error, for `ms` milliseconds; screen readers hear it too. */
  showError(message, ms) {
    if (!this.fields) return;
    delete this.fields.status.dataset.note;
    this.screen.showStatus(message, true);
    this.screen.announce(message);
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => {
      delete this.fields.status.dataset.error;
      this.screen.refreshBars();
    }, ms);
  }

  /**
   * Shows `message` in the status line for `ms` milliseconds, not as an error (the game's own line waits); screen
   * readers hear it too.
   */
  showNote(message, ms) {
    if (!this.fields) return;
    this.screen.showStatus(message, false);
    this.screen.announce(message);
    this.fields.status.dataset.note = "true";
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => {
      delete this.fields.status.dataset.note;
      this.screen.refreshBars();
    }, ms);
  }

  /** Ends the note shown, if any, so the status line is the game's own again. */
  clearNote() {
    if (!this.fields?.status.dataset.note) return;
    clearTimeout(this.noteTimer);
    delete this.fields.status.dataset.note;
    this.screen.refreshBars();
  }

  /**
   * Says what a game read from a PGN left out: the other games of `text` when it holds several and nobody chose one
   * (null when somebody did, or for no text), and the side lines beyond one variation per move.
   */
  noteLoaded(game, text = null) {
    const games = text ? this.rules.Game.pgnGames(text).length : 0;
    const count = game.unkeptLines();
    const lines = count === 1 ? "1 side line" : `${count} side lines`;
    const notes = [];
    if (games > 1) notes.push(`This PGN holds ${games} games; the first is shown.`);
    if (count) notes.push(`Not kept from ${games > 1 ? "it" : "this PGN"}: ${lines} (further variations, or words inside one).`);
    if (count && games <= 1) notes.push("The player keeps one variation per move.");
    if (notes.length) this.showNote(notes.join(" "), 8000);
    else this.clearNote();
  }

  /**
   * Replaces the game with the one `make` builds; returns an error message (game untouched) or null. `text`, the PGN
   * the game was read from when nobody chose one of its games, lets the status line say it holds others.
   */
  replaceGame(make, configure, text = null) {
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
    this.extrasFor(game);
    this.noteLoaded(game, text);
    return null;
  }

  /**
   * The review and analysis panel, loaded at first use (after the player is ready); null when it cannot load, which
   * the status line then says.
   */
  extras() {
    this.extrasLoading ??= this.ready
      .then(() => import(EXTRAS_URL))
      .then(({ ReviewView }) => {
        this.extrasView = new ReviewView(this);
        // Its panel has a Review button of its own: the status panel's after-game prompt goes.
        this.screen.refresh(false);
        return this.extrasView;
      })
      .catch((err) => {
        this.extrasError = `the review and analysis panel could not load: ${err.message}`;
        this.fail(this.extrasError);
        return null;
      });
    return this.extrasLoading;
  }

  /** Runs `use` with the review panel; when it cannot load, says so again and rejects with the reason. */
  withExtras(use) {
    return this.extras().then((view) => {
      if (view) return use(view);
      this.fail(this.extrasError);
      throw new Error(this.extrasError);
    });
  }

  /** A game read from a PGN with review marks, evaluations or drawings shows them: the panel loads for it, and the
   * board is drawn again with them. */
  extrasFor(game) {
    if (!game?.annotations?.().length) return;
    this.extras().then((view) => {
      if (!view) return;
      view.onPosition();
      this.screen.refresh(false);
    });
  }

  /**
   * Right-button arrows and circles, and the keyboard's ("x" on the focused square): the panel loads at the first
   * one; a left press clears the drawings of the position shown.
   * @param {HTMLCanvasElement} canvas
   */
  listenForDrawing(canvas) {
    canvas.addEventListener("contextmenu", (event) => event.preventDefault());
    // A right press starts a drawing on its pointerdown or, where that does not come, its mousedown: WebKit may
    // end a right press with a mouseup only, and then takes the next right press for a second button of a pointer
    // still down, which has no pointerdown. The mousedown that follows a pointerdown is the same press.
    const rightPress = (event) => {
      // Any release from now on ends this press.
      this.lastUp = null;
      this.extras().then((view) => view?.press(event));
    };
    canvas.addEventListener("pointerdown", (event) => {
      if (event.button === 0) this.extrasView?.clear();
      this.pointerPressed = event.button === 2;
      if (event.button === 2) rightPress(event);
    });
    canvas.addEventListener("mousedown", (event) => {
      const seen = this.pointerPressed;
      this.pointerPressed = false;
      if (event.button === 2 && !seen) rightPress(event);
    });
    // Kept for a panel that loads after the button came up.
    for (const type of ["pointerup", "mouseup"]) canvas.addEventListener(type, (event) => (this.lastUp = event));
    canvas.addEventListener("keydown", (event) => {
      if ((event.key !== "x" && event.key !== "X") || event.repeat) return;
      // The focus square now: it may move before the panel has loaded.
      const square = this.boardState.cursor;
      this.extras().then((view) => view?.key(square, event));
    });
  }

  startFromDialog(options) {
    const side = options.side === "random" ? (Math.random() < 0.5 ? "white" : "black") : options.side;
    const player = options.mode === "hvh" ? "both" : options.mode === "cvc" ? "none" : side;
    return this.replaceGame(
      () => new this.rules.Game(options.fen || undefined),
      () =>
        this.applySettings({
          level: options.level,
          think: options.think,
          book: options.book,
          player,
          ...(side === player ? { orientation: player } : {}),
          ...(options.clock === undefined ? {} : { clock: options.clock }),
        }),
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
      resign: () => this.dialogs.show("resign"),
      "import-export": () => this.dialogs.show("io"),
      editor: () => this.openEditor(),
      settings: () => this.dialogs.show("settings"),
      mute: () => this.applySettings({ sound: this.sounds.muted }),
      help: () => this.dialogs.show("help"),
      // Escape first takes back a premove, then leaves the history view.
      live: () => this.play.cancelPremove("cancelled") || this.history.live(),
      "accept-draw": () => c.answerDrawOffer(true),
      "decline-draw": () => c.answerDrawOffer(false),
      "retry-engine": () => c.retryEngine(),
      "two-players": () => this.setPlayer("both"),
      rematch: () => this.rematch(),
      review: () => {
        this.$(".after-game").hidden = true;
        return this.review().catch(() => {});
      },
      // A panel that cannot load has said so in the status line.
      analyse: () => (c.analysing ? this.stopAnalysis() : this.analyse()).catch(() => {}),
    };
    if (["first", "prev", "next", "last"].includes(action)) return this.history.step(action), true;
    if (!actions[action]) return false;
    const used = actions[action]();
    return action === "undo" || action === "redo" ? used || fromKeyboard : true;
  }

  /** Opens the position editor (www/extras/editor.js), loading it on first use; resolves to it, or null. */
  async openEditor() {
    try {
      return await (await import(EDITOR_URL)).openEditor(this);
    } catch (err) {
      this.fail(`the position editor could not load: ${err.message}`);
      return null;
    }
  }

  toggleAutoplay() {
    this.controller.toggleAutoplay();
    this.settings.player = this.controller.options.player;
    this.saveSettingsNow();
    this.screen.refresh(false);
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

  /**
   * A new game from the same start position with the same settings, the person taking the other colour when they
   * played the engine (and the board turned for them).
   */
  rematch() {
    if (!this.rules || !this.game) return;
    const start = this.game.startFen();
    const was = this.settings.player;
    const player = { white: "black", black: "white" }[was] ?? was;
    this.replaceGame(
      () => new this.rules.Game(start),
      () => this.applySettings({ player, ...(player !== was ? { orientation: player } : {}) }),
    );
  }

  /**
   * Loads a FEN or PGN as a new game (game `index` of a PGN that holds several, the first by default, which the status
   * line then says); returns false and fires `error` (game untouched) when it cannot be read.
   */
  load(text, index) {
    if (!this.rules) return false;
    return (
      this.replaceGame(
        () => {
          if (index !== undefined && (!Number.isSafeInteger(index) || index < 0)) throw new Error(`load: the game's index counts from 0, so ${JSON.stringify(index)} is not one`);
          return this.rules.Game.load(String(text), index ?? 0);
        },
        undefined,
        index === undefined ? String(text) : null,
      ) === null
    );
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

  /**
   * Uses the shared memory at `url` (validated by the `memory` attribute), or none (null).
   * @param {string | null} url
   */
  setMemory(url) {
    if (url === this.memoryUrl) return;
    this.memoryUrl = url;
    this.controller?.setMemory(this.sharedMemory());
  }

  /** A promise of the shared memory for `memoryUrl` (its module loads only now), or null. */
  sharedMemory() {
    const url = this.memoryUrl;
    return url ? import(MEMORY_URL).then(({ SharedMemory }) => new SharedMemory(url)) : null;
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

  /** What resigning now means, for the confirmation: who wins. */
  resignText() {
    const p = this.settings.player;
    const loser = p === "white" || p === "black" ? p : this.game?.turn() === "b" ? "black" : "white";
    const winner = loser === "white" ? "Black" : "White";
    if (p === "white" || p === "black") return `Homeostat wins as ${winner}. The game stays on the board to look through or review.`;
    return `${loser === "white" ? "White" : "Black"} resigns and ${winner} wins. The game stays on the board to look through or review.`;
  }

  /**
   * Reviews the game in a worker of its own: resolves to `{moves: [{ply, san, mark, best, bestSan, winDrop}],
   * accuracy: {white, black}}` and fires `review`; rejects (an AbortError when cancelled) otherwise.
   */
  review() {
    return this.withExtras((view) => view.review());
  }

  /**
   * Analyses every position, whoever is to move, with `lines` (1–5) lines until `stopAnalysis()`; each update
   * fires `analysis` `{lines: [{pv, pvSan, score, scoreWhite, depth}]}`.
   * @param {{lines?: number}} [options]
   */
  analyse(options = {}) {
    return this.withExtras((view) => view.analyse(options));
  }

  /** Ends `analyse()`: the engine plays again as set. */
  stopAnalysis() {
    return this.withExtras((view) => view.stopAnalysis());
  }

  /** Ply shown read-only from the history, or null for the live game. */
  get viewPly() {
    return this.history.ply;
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
    const tags = { Event: "Homeostat game", Site: location.host || "Homeostat", Date: date, White: name("white"), Black: name("black"), TimeControl: this.timeControlTag() };
    // With a review or drawings, the annotated form.
    return this.extrasView?.pgn(tags) ?? this.game.pgn(tags);
  }

  /** The game's time control as PGN's TimeControl tag: seconds and increment ("180+2"), "-" when untimed. */
  timeControlTag() {
    const clock = this.controller?.clock;
    return clock ? `${Math.round(clock.baseMs / 1000)}+${Math.round(clock.incMs / 1000)}` : "-";
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

  /** The premove waiting for the engine's reply, `{from, to}` (and `promotion` when typed with one), or null. */
  get premove() {
    const p = this.play.premove;
    return p ? { from: p.from, to: p.to, ...(p.promotion && { promotion: p.promotion }) } : null;
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

if (!customElements.get("homeostat-chess")) customElements.define("homeostat-chess", HomeostatChess);
