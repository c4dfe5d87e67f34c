// <homeostat-checkers>: English draughts against Homeostat's checkers engine, with its thinking shown as the
// applet showed it. The rules come from www/pkg-checkers (its own wasm module: chess pages never load it), the
// engine runs in www/checkers/worker.js, the board is drawn by www/checkers/board.js. Attribute parsing and
// keyboard filtering are shared with the chess element (www/ui/attributes.js, www/ui/keyboard.js).

import { readChoice, readLevel, readMillis, readSwitch } from "./ui/attributes.js";
import { ignoredKey } from "./ui/keyboard.js";
import { loadPackage, sayIfSlow } from "./engine/wasm-support.js";
import { CheckersBoard, rowCol, squareAt } from "./checkers/board.js";
import { CheckersEngine } from "./checkers/engine.js";
import { TEMPLATE } from "./checkers/template.js";

const PKG_URL = new URL("./pkg-checkers/homeostat_checkers_web.js", import.meta.url).href;

/** Every attribute the element watches. */
const ATTRIBUTES = ["player", "level", "fen", "pdn", "orientation", "show-thinking", "theme", "readonly", "think-min", "movetime"];
const PLAYERS = ["white", "black", "both", "none"];
const NAMES = { b: "Black", w: "White" };

/** @type {Promise<any> | null} */
let loading = null;
/** The checkers wasm package for the main thread, loaded once per page. */
function loadRules() {
  loading ??= loadPackage(PKG_URL);
  return loading;
}

/** Whether `path` begins with every square of `prefix`. */
function startsWith(path, prefix) {
  return prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
}

/** "11", "11 and 15", "9, 11 and 15". */
function listSquares(squares) {
  const names = squares.map(String);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The checkers player element. */
export class HomeostatCheckers extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  constructor() {
    super();
    /** @type {any} the wasm Game, once loaded */
    this.game = null;
    this.pkg = null;
    this.player = "black";
    this.level = 4;
    this.orientationSet = null;
    this.showThinking = true;
    this.readonly = false;
    this.thinkMin = null;
    this.movetime = null;
    /** The piece being moved: its square and the landing squares clicked so far. */
    this.selection = null;
    this.mustCapture = [];
    this.engine = null;
    this.thinking = false;
    this.searchToken = 0;
    this.engineFailed = false;
    this.gameOverSent = false;
    this.cursor = null;
    /** Resolves when the rules are loaded and the first position is shown. */
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  /** Builds the tree once, then starts the game or, when moved back into a page, goes on with it. */
  connectedCallback() {
    if (!this.shadowRoot) this.build();
    if (!this.started) {
      this.started = true;
      this.dataset.state = "loading";
      this.start();
    } else {
      this.resizer.observe(this.canvas);
      this.afterChange();
    }
  }

  /** Stops the engine while the element is out of the page. */
  disconnectedCallback() {
    this.resizer?.disconnect();
    this.searchToken++;
    this.engine?.cancel();
    this.setThinking(false);
  }

  /** Applies a changed attribute once the game is loaded (before that, `start` reads them all). */
  attributeChangedCallback(name, old, value) {
    if (this.game && old !== value) this.applyAttribute(name);
  }

  /** Builds the shadow tree and wires its controls. */
  build() {
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = TEMPLATE;
    this.$ = (selector) => root.querySelector(selector);
    this.fields = Object.fromEntries([...root.querySelectorAll("[data-field]")].map((el) => [el.dataset.field, el]));
    this.canvas = this.$("canvas");
    this.board = new CheckersBoard(this.canvas);
    this.resizer = new ResizeObserver(() => this.board.fit());
    this.resizer.observe(this.canvas);
    this.canvas.addEventListener("click", (event) => {
      const box = this.canvas.getBoundingClientRect();
      const at = this.board.pointToRowCol(event.clientX - box.left, event.clientY - box.top);
      if (at) this.clickSquare(squareAt(at.row, at.col));
    });
    this.canvas.addEventListener("keydown", (event) => this.boardKey(event));
    this.canvas.addEventListener("blur", () => this.board.update({ cursor: null }));
    this.addEventListener("keydown", (event) => this.shortcut(event));
    root.addEventListener("click", (event) => {
      const action = /** @type {HTMLElement} */ (event.target).closest?.("[data-action]")?.getAttribute("data-action");
      if (action) this.runAction(action);
    });
    this.$("[data-control=player]").addEventListener("change", (event) => this.setAttribute("player", event.target.value));
    this.$("[data-control=level]").addEventListener("change", (event) => this.setAttribute("level", event.target.value));
    this.$(".record").addEventListener("toggle", () => this.renderRecord());
  }

  /** Loads the rules, reads the attributes and shows the first position. */
  async start() {
    try {
      this.pkg = await sayIfSlow(loadRules(), () => {
        this.fields.status.textContent = "Still loading the checkers rules (pkg-checkers/homeostat_checkers_web_bg.wasm): the network is slow.";
      });
    } catch (err) {
      this.dataset.state = "error";
      this.showError(`The checkers rules could not load: ${err?.message ?? err}`);
      this.fields.status.textContent = "Checkers unavailable";
      return;
    }
    for (const name of ["player", "level", "orientation", "show-thinking", "theme", "readonly", "think-min", "movetime"]) this.applyAttribute(name, true);
    const pdn = this.getAttribute("pdn");
    const fen = this.getAttribute("fen");
    this.game = new this.pkg.Game();
    if (pdn !== null) this.loadPdn(pdn, true);
    else if (fen !== null) this.loadFen(fen, true);
    this.dataset.state = "ready";
    this.board.fit();
    this.afterChange();
    this.markReady();
  }

  /**
   * Reads one attribute; a bad value is reported and the previous setting kept.
   * @param {string} name
   * @param {boolean} [initial] while starting (the game is set up afterwards)
   */
  applyAttribute(name, initial = false) {
    const text = this.getAttribute(name);
    const read = (result, fallback, apply) => {
      if (text === null) return apply(fallback);
      if ("error" in result) return this.showError(`Attribute ${result.error}`);
      apply(result.value);
    };
    switch (name) {
      case "player":
        this.flipped = undefined;
        read(text === null ? {} : readChoice("player", text, PLAYERS), "black", (v) => (this.player = v));
        break;
      case "level":
        read(text === null ? {} : readLevel(text.trim()), 4, (v) => (this.level = v));
        break;
      case "orientation":
        this.flipped = undefined;
        read(text === null ? {} : readChoice("orientation", text, ["white", "black"]), null, (v) => (this.orientationSet = v));
        break;
      case "show-thinking":
        read(readSwitch("show-thinking", text, true), true, (v) => (this.showThinking = v));
        break;
      case "readonly":
        read(readSwitch("readonly", text, false), false, (v) => (this.readonly = v));
        break;
      case "theme":
        if (text !== null && "error" in readChoice("theme", text, ["light", "dark", "auto"])) this.showError(`Attribute theme="${text}": use light, dark or auto`);
        break;
      case "think-min":
        read(text === null ? {} : readMillis("think-min", text), null, (v) => (this.thinkMin = v));
        break;
      case "movetime":
        read(text === null ? {} : readMillis("movetime", text), null, (v) => (this.movetime = v));
        break;
      case "fen":
        if (!initial && text !== null) this.loadFen(text);
        break;
      case "pdn":
        if (!initial && text !== null) this.loadPdn(text);
        break;
    }
    if (!initial && this.game && !["fen", "pdn"].includes(name)) {
      if (name === "player" || name === "readonly" || name === "level") this.stopThinking();
      if (name === "player" || name === "readonly") this.clearSelection();
      this.afterChange();
    }
  }

  // ---- Public API -------------------------------------------------------------------------------------------

  /** The current position in PDN FEN. */
  get fen() {
    return this.game?.fen() ?? "";
  }

  /** The game in PDN. */
  get pdn() {
    return this.game?.pdn() ?? "";
  }

  /** `"b"` or `"w"`: whose move it is (Black moves first). */
  get turn() {
    return this.game?.turn() ?? "b";
  }

  /** `{over, result, reason, text}` of the game (`result` `"*"` while it goes on). */
  get status() {
    const outcome = this.game?.outcome();
    return outcome ? { over: true, ...outcome } : { over: false, result: "*", reason: null, text: null };
  }

  /** The side at the bottom of the board: the orientation attribute, else the person's side. */
  get orientation() {
    if (this.flipped !== undefined) return this.flipped;
    return this.orientationSet ?? (this.player === "white" ? "white" : this.player === "black" ? "black" : "white");
  }

  /**
   * Plays a move in PDN (`11-15`, `15x24x31`) for the side to move, as a person would; returns whether it was played.
   * Refused, with an `error` event and a message in the player, when it is illegal or the engine's turn.
   * @param {string} text
   */
  move(text) {
    if (!this.game) return false;
    if (this.readonly) return this.refuse("The player is read-only");
    const outcome = this.game.outcome();
    if (outcome) return this.refuse(`The game is over: ${outcome.text}`);
    if (!this.personToMove()) return this.refuse(`It is Homeostat's move, not yours`);
    return this.playPerson(String(text));
  }

  /** Starts a new game from the `fen` attribute's position, or the standard start. */
  newGame() {
    if (!this.game) return;
    this.stopThinking();
    const fen = this.getAttribute("fen");
    let game = null;
    try {
      game = new this.pkg.Game(fen ?? undefined);
    } catch {
      game = new this.pkg.Game();
    }
    this.replaceGame(game);
    this.engine?.newGame();
  }

  /** Takes back moves to the person's previous turn (one move when two people play). */
  undo() {
    if (!this.game || this.readonly) return false;
    this.stopThinking();
    if (!this.game.undo()) return false;
    while (this.game.ply() > 0 && !this.personToMove() && this.player !== "none") this.game.undo();
    this.gameOverSent = false;
    this.clearSelection();
    this.afterChange();
    return true;
  }

  /** Plays again what undo took back, up to the person's next turn. */
  redo() {
    if (!this.game || this.readonly) return false;
    this.stopThinking();
    if (!this.game.redo()) return false;
    while (!this.personToMove() && this.player !== "none" && this.game.outcome() === null && this.game.redo());
    this.clearSelection();
    this.afterChange();
    return true;
  }

  /** Turns the board around. */
  flip() {
    this.flipped = this.orientation === "white" ? "black" : "white";
    this.render();
  }

  // ---- Game flow -------------------------------------------------------------------------------------------

  /** Whether a person moves for `color` ("b" or "w"). */
  isPerson(color) {
    return this.player === "both" || (this.player === "black" && color === "b") || (this.player === "white" && color === "w");
  }

  /** Whether the side to move is a person's (and the game is on). */
  personToMove() {
    return !this.readonly && this.game.outcome() === null && this.isPerson(this.game.turn());
  }

  /** Replaces the game (loaded FEN or PDN, new game) and shows it. */
  replaceGame(game) {
    this.stopThinking();
    this.game?.free?.();
    this.game = game;
    this.gameOverSent = false;
    this.engineFailed = false;
    this.clearSelection();
    this.hideError();
    this.afterChange();
  }

  /** Sets up the position `text` (PDN FEN); a bad one is reported and the game kept. */
  loadFen(text, initial = false) {
    try {
      const game = new this.pkg.Game(text);
      if (initial) this.game = game;
      else this.replaceGame(game);
      return true;
    } catch (err) {
      this.showError(`Could not set up the position: ${err.message}`);
      return false;
    }
  }

  /** Loads a game from PDN; a bad one is reported and the game kept. */
  loadPdn(text, initial = false) {
    try {
      const game = this.pkg.Game.fromPdn(text);
      if (initial) this.game = game;
      else this.replaceGame(game);
      return true;
    } catch (err) {
      this.showError(`Could not load the game: ${err.message}`);
      return false;
    }
  }

  /** Plays a person's move; reports a refusal. */
  playPerson(text) {
    let played;
    try {
      played = this.game.play(text);
    } catch (err) {
      return this.refuse(err.message);
    }
    this.clearSelection();
    this.moved(played, "person");
    return true;
  }

  /** After any move: events, announcement, and the next turn. */
  moved(played, by) {
    const color = this.game.turn() === "b" ? "w" : "b";
    const name = by === "engine" ? `Homeostat (${NAMES[color]})` : NAMES[color];
    const taken = played.captured.length;
    let words = `${name} played ${played.text}`;
    if (taken) words += `, taking ${taken} ${taken === 1 ? "piece" : "pieces"}`;
    if (played.crowned) words += ", and is crowned";
    this.announce(words);
    // The engine's moves slide into place; a person's clicks already showed theirs.
    if (by === "engine") {
      this.render();
      this.board.animate(played.path, this.game.board()[played.to - 1]);
    }
    this.emit("move", { move: played.text, path: played.path, captured: played.captured, crowned: played.crowned, fen: played.fen, color, by });
    this.afterChange();
  }

  /** Redraws, reports the end of the game once, and lets the engine move when it is its turn. */
  afterChange() {
    if (!this.game) return;
    this.render();
    const outcome = this.game.outcome();
    if (outcome) {
      if (!this.gameOverSent) {
        this.gameOverSent = true;
        this.announce(`Game over: ${outcome.text}`);
        this.emit("gameover", { ...outcome, pdn: this.game.pdn() });
      }
      return;
    }
    if (!this.isConnected || this.readonly || this.isPerson(this.game.turn()) || this.thinking || this.engineFailed) return;
    this.think();
  }

  /** Milliseconds the engine's move lasts at least, so that people see it think. */
  minimumThinkMs() {
    if (this.thinkMin !== null) return this.thinkMin;
    return this.player === "none" ? 350 : 700;
  }

  /** Asks the engine for a move in the current position and plays it. */
  async think() {
    const token = ++this.searchToken;
    this.engine ??= new CheckersEngine();
    this.setThinking(true);
    const started = performance.now();
    const request = { fen: this.game.startFen(), moves: this.game.moves(), level: this.level };
    if (this.movetime !== null) request.movetimeMs = this.movetime;
    let result;
    try {
      result = await this.engine.search(request, {
        onProgress: (event) => {
          if (token !== this.searchToken) return;
          this.showProgress(event);
          this.emit("thinking", event);
        },
      });
    } catch (err) {
      if (token !== this.searchToken || err?.name === "AbortError") return;
      this.setThinking(false);
      this.engineFailed = true;
      this.showError(`The engine stopped: ${err.message}. Choose “Both sides” to play on, or New game to try again.`);
      this.fields.mode.textContent = "Engine unavailable";
      this.renderStatus();
      return;
    }
    // A forced move is played at once, as the applet did: only a moment's pause so that it can be followed.
    const minimum = result.forced ? Math.min(150, this.minimumThinkMs()) : this.minimumThinkMs();
    const wait = minimum - (performance.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (token !== this.searchToken) return;
    this.setThinking(false);
    if (result.forced) this.fields.line.textContent = `Only move: ${result.best}`;
    this.fields.details.textContent = result.forced ? "Played at once" : `Depth ${result.depth} · ${result.score} · ${result.nodes.toLocaleString("en-US")} positions · ${result.pv.join(" ")}`;
    if (!result.best) return;
    let played;
    try {
      played = this.game.play(result.best);
    } catch (err) {
      this.engineFailed = true;
      return this.showError(`The engine chose a move that could not be played: ${err.message}`);
    }
    this.moved(played, "engine");
  }

  /** Calls off the engine's search, if any. */
  stopThinking() {
    this.searchToken++;
    if (this.thinking) this.engine?.cancel();
    this.setThinking(false);
  }

  /** Marks the engine as searching or not, in the thinking panel and the status line. */
  setThinking(on) {
    this.thinking = on;
    const panel = this.$?.(".thinking");
    if (!panel) return;
    panel.toggleAttribute("data-active", on);
    this.fields.mode.textContent = on ? "Homeostat is thinking" : this.engineFailed ? "Engine unavailable" : "Engine idle";
    if (on) {
      this.fields.line.textContent = "Thinking…";
      this.fields.details.textContent = "";
    }
    this.renderStatus();
  }

  /** Shows one progress event: the applet's line for root moves, depth and line for iterations. */
  showProgress(event) {
    if (event.type === "root") this.fields.line.textContent = event.line;
    else if (event.type === "iteration") {
      this.fields.details.textContent = `Depth ${event.depth} · ${event.score} · ${event.nodes.toLocaleString("en-US")} positions · ${event.pv.join(" ")}`;
    }
  }

  // ---- Board input -----------------------------------------------------------------------------------------

  /**
   * A click or Enter on a square (null for a light square): select a piece, then each landing square in turn.
   * @param {number | null} square
   */
  clickSquare(square) {
    if (!this.game || this.readonly) return;
    if (!this.personToMove()) {
      if (this.game.outcome()) this.hint("The game is over: start a new game, or undo");
      else if (this.thinking) this.hint("Wait: Homeostat is thinking");
      return;
    }
    const moves = this.game.legalMoves();
    const sel = this.selection;
    if (sel && square !== null) {
      const prefix = [sel.from, ...sel.landings, square];
      const fits = moves.filter((m) => startsWith(m.path, prefix));
      if (fits.length) {
        const done = fits.find((m) => m.path.length === prefix.length);
        if (done) return void this.playPerson(done.text);
        sel.landings.push(square);
        this.hint(`Go on capturing: click the next landing square`);
        this.announce(`Landed on ${square}; the capture goes on to ${listSquares(this.targets())}`);
        return this.render();
      }
      if (sel.landings.length) {
        this.hint(`Finish the capture: click ${listSquares(this.targets())}`, "warn");
        return this.announce(`The capture must go on to ${listSquares(this.targets())}`);
      }
      if (square === sel.from) {
        this.clearSelection();
        return this.render();
      }
    }
    const piece = square === null ? "" : this.game.board()[square - 1];
    if (!piece || piece.toLowerCase() !== this.game.turn()) {
      if (sel) {
        this.clearSelection();
        this.render();
      }
      return;
    }
    const mine = moves.filter((m) => m.from === square);
    if (!mine.length) {
      const capturers = Array.from(this.game.capturingSquares());
      this.clearSelection();
      if (capturers.length) {
        this.mustCapture = capturers;
        const who = capturers.length === 1 ? `the piece on ${capturers[0]} must capture` : `the pieces on ${listSquares(capturers)} can capture, and one must`;
        this.hint(`A capture is compulsory: ${who}`, "warn");
        this.announce(`Capture is compulsory: ${who}`);
      } else {
        this.hint(`The piece on ${square} cannot move`, "warn");
        this.announce(`The piece on ${square} cannot move`);
      }
      return this.render();
    }
    this.selection = { from: square, landings: [] };
    this.mustCapture = [];
    const next = this.targets();
    this.hint(mine[0].capture ? `Capture: click each landing square in turn` : `Click a marked square to move`);
    this.announce(`Selected the ${piece === piece.toUpperCase() ? "king" : "man"} on ${square}; it can go to ${listSquares(next)}`);
    this.render();
  }

  /** The squares the selected piece may land on next. */
  targets() {
    const sel = this.selection;
    if (!sel || !this.game) return [];
    const prefix = [sel.from, ...sel.landings];
    const next = new Set();
    for (const m of this.game.legalMoves()) if (startsWith(m.path, prefix) && m.path.length > prefix.length) next.add(m.path[prefix.length]);
    return [...next].sort((a, b) => a - b);
  }

  /** Drops the piece in hand and the must-capture marks. */
  clearSelection() {
    this.selection = null;
    this.mustCapture = [];
  }

  /** Arrow keys move the cursor over the squares, Enter or Space clicks, Escape cancels. */
  boardKey(event) {
    if (ignoredKey(event)) return;
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const flip = this.orientation === "black" ? -1 : 1;
    if (event.key in steps) {
      event.preventDefault();
      const [dy, dx] = steps[event.key];
      const start = this.cursor ?? (this.orientation === "black" ? { row: 2, col: 5 } : { row: 5, col: 2 });
      const at = this.cursor ? { row: Math.min(7, Math.max(0, start.row + dy * flip)), col: Math.min(7, Math.max(0, start.col + dx * flip)) } : start;
      this.cursor = at;
      this.board.update({ cursor: at });
      const square = squareAt(at.row, at.col);
      const piece = square ? this.game?.board()[square - 1] : "";
      const what = piece ? `${NAMES[piece.toLowerCase()]} ${piece === piece.toUpperCase() ? "king" : "man"}` : "empty";
      this.announce(square ? `Square ${square}, ${what}` : "Light square");
    } else if ((event.key === "Enter" || event.key === " ") && this.cursor) {
      event.preventDefault();
      event.stopPropagation();
      this.clickSquare(squareAt(this.cursor.row, this.cursor.col));
    } else if (event.key === "Escape" && this.selection) {
      event.preventDefault();
      this.clearSelection();
      this.hint("Move cancelled");
      this.render();
    }
  }

  /** Element-wide keys: f flips, Backspace undoes, r redoes. */
  shortcut(event) {
    if (ignoredKey(event) || event.composedPath().some((el) => el instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))) return;
    const action = { f: "flip", F: "flip", Backspace: "undo", r: "redo", R: "redo" }[event.key];
    if (!action) return;
    event.preventDefault();
    this.runAction(action);
  }

  /** Runs a toolbar button's action. */
  runAction(action) {
    switch (action) {
      case "new":
        return this.newGame();
      case "undo":
        return this.undo();
      case "redo":
        return this.redo();
      case "flip":
        return this.flip();
      case "dismiss":
        return this.hideError();
      case "load": {
        const text = this.fields.pdn.value.trim();
        // A lone FEN (B:W21,22:B1,2) sets up a position; anything else is read as PDN.
        const ok = /^"?[BW]:[BW]/i.test(text) && !text.includes("[") ? this.loadFen(text) : this.loadPdn(text);
        if (ok) this.engine?.newGame();
        return ok;
      }
      case "copy":
        this.fields.pdn.select();
        return navigator.clipboard?.writeText(this.fields.pdn.value).then(
          () => this.hint("PDN copied"),
          () => this.hint("Select the text and copy it"),
        );
    }
  }

  // ---- View -----------------------------------------------------------------------------------------------

  /** Redraws the board and every panel from the game. */
  render() {
    if (!this.game) return;
    const last = this.game.lastMove();
    const sel = this.selection;
    this.board.update({
      pieces: this.game.board(),
      orientation: this.orientation,
      lastMove: last ? last.path : null,
      selected: sel ? sel.from : null,
      partial: sel ? [...sel.landings] : [],
      targets: this.targets(),
      mustCapture: this.mustCapture,
    });
    this.canvas.setAttribute("aria-label", `Checkers board, ${this.orientation === "white" ? "White" : "Black"} at the bottom. Arrow keys move over the squares, Enter picks a piece and its landing squares.`);
    this.renderMoves();
    this.renderStatus();
    this.renderRecord();
    this.$(".thinking").hidden = !this.showThinking;
    this.$(".controls-card").hidden = this.readonly;
    this.$("[data-control=player]").value = this.player;
    this.$("[data-control=level]").value = String(this.level);
    this.$("[data-action=undo]").disabled = this.game.ply() === 0;
    this.$("[data-action=redo]").disabled = !this.game.canRedo();
  }

  /** The status line: whose move, the engine thinking, or the result; and the standing hint. */
  renderStatus() {
    if (!this.game) return;
    const outcome = this.game.outcome();
    const turn = this.game.turn();
    let text;
    if (outcome) text = outcome.text;
    else if (this.readonly) text = `${NAMES[turn]} to move`;
    else if (this.isPerson(turn)) text = this.player === "both" ? `${NAMES[turn]} to move` : `Your move (${NAMES[turn]})`;
    else if (this.engineFailed) text = "Engine unavailable";
    else text = `Homeostat is thinking (${NAMES[turn]})`;
    this.fields.status.textContent = text;
    this.fields.material.textContent = ["b", "w"].map((c) => `${NAMES[c]}: ${this.material(c)}`).join(" · ");
    this.fields["turn-dot"].dataset.color = outcome ? "" : turn;
    if (!this.selection && !this.mustCapture.length) {
      const captures = !outcome && this.isPerson(turn) && !this.readonly && this.game.capturingSquares().length > 0;
      this.hint(captures ? "You must capture" : "");
    }
  }

  /** "8 men, 1 king" for a side ("b" or "w"), or "no pieces". */
  material(color) {
    const board = this.game.board();
    const men = board.filter((p) => p === color).length;
    const kings = board.filter((p) => p === color.toUpperCase()).length;
    const parts = [];
    if (men) parts.push(`${men} ${men === 1 ? "man" : "men"}`);
    if (kings) parts.push(`${kings} ${kings === 1 ? "king" : "kings"}`);
    return parts.join(", ") || "no pieces";
  }

  /** The move list in PDN, numbered by Black's moves, the last move marked. */
  renderMoves() {
    const list = this.fields.moves;
    const moves = this.game.moves();
    const whiteFirst = this.game.startFen().startsWith("W");
    const rows = [];
    const plies = whiteFirst ? ["…", ...moves] : moves;
    for (let i = 0; i < plies.length; i += 2) rows.push([i / 2 + 1, plies[i], plies[i + 1]]);
    const lastIndex = plies.length - 1;
    list.replaceChildren(
      ...rows.map(([n, b, w], r) => {
        const li = document.createElement("li");
        const cell = (text, index) => {
          const span = document.createElement("span");
          span.textContent = text ?? "";
          if (index === lastIndex && text) span.className = "last";
          return span;
        };
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = `${n}.`;
        li.append(num, cell(b, 2 * r), cell(w, 2 * r + 1));
        return li;
      }),
    );
    if (!rows.length) {
      const li = document.createElement("li");
      li.className = "empty";
      li.textContent = "No moves yet";
      list.append(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  /** The game record box's PDN, unless someone is typing in it. */
  renderRecord() {
    const record = this.$(".record");
    if (record.open && this.shadowRoot.activeElement !== this.fields.pdn) this.fields.pdn.value = this.game?.pdn() ?? "";
  }

  /** The line under the status: what to do next, or (tone "warn") why a click was refused. */
  hint(text, tone = "") {
    this.fields.hint.textContent = text;
    this.fields.hint.dataset.tone = tone;
  }

  /** Says `text` through the aria-live region. */
  announce(text) {
    // Clearing first makes screen readers speak a repeated message again.
    this.fields.announce.textContent = "";
    requestAnimationFrame(() => (this.fields.announce.textContent = text));
  }

  /** Shows a message in the player and fires `error`. */
  showError(message) {
    this.fields.error.textContent = message;
    this.$(".error").hidden = false;
    this.emit("error", { message });
  }

  /** Hides the message box. */
  hideError() {
    this.$(".error").hidden = true;
  }

  /** Refuses a move with a visible message and an `error` event; returns false. */
  refuse(message) {
    this.hint(message, "warn");
    this.showError(message);
    return false;
  }

  /**
   * Fires a bubbling, composed CustomEvent; `error` stays on the element, as the DOM's own error events do, since one
   * reaching the window would run the page's `window.onerror` (and any error monitoring) for a refused move.
   */
  emit(type, detail) {
    const bubbles = type !== "error";
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles, composed: bubbles }));
  }
}

if (!customElements.get("homeostat-checkers")) customElements.define("homeostat-checkers", HomeostatCheckers);
