// The game controller: owns the game (the wasm Game), the engine client and the play policy — when the engine
// searches, what it does with a result, resigning, draw offers both ways, hints, the level's visible think and the
// seeds. It touches no DOM and emits plain events, so the same code runs in a page and under Node's test runner.
//
// Events (CustomEvent, detail in braces):
//   position {animate}        the game changed (a move, a take-back, a new game)
//   move {san, uci, fen, by}  a move was played, by "human" or "engine"
//   searchstart {kind}        a search began: "play", "hint" or "analyse"
//   thinking {kind, ...}      search progress merged so far (depth, score, line, best move, …; `lines` with MultiPV)
//   searchend {kind}          the search ended or was called off
//   book {san, kind}          the engine's answer came from the opening book
//   hint {uci, san, book}     a suggested move for the human
//   drawoffer {}              the engine offers a draw along with its move
//   drawanswer {accepted}     the engine's answer to the human's draw offer
//   gameover {result, reason}  (reason "time" when a clock ran out)
//   clock {}                  a clock started, stopped or was reset (read the times from `clock`)
//   engine {state, message}   the engine's state: "off", "loading", "ready" or "failed"
//   memory {state, ...}       the shared memory: "hit" {kind, san, uci, depth, players, text}, "offline" {reason}, "slow" {reason}, "online"
//   enginestart, enginestop {starts}
//   error {message, engine}   something went wrong (engine: true when it was the engine)

import { PLAYERS } from "./settings.js";
import { Pacer } from "./pacer.js";

/** Milliseconds a move takes by level when no time is set, until the wasm module exports `levelThinkMs`. */
const FALLBACK_THINK_MS = [500, 1000, 1000, 1000, 1000, 1000, 1000, 3000];

/** Analysis in two-human games: full strength, for a minute (a new position starts a new one). */
const ANALYSIS_LIMITS = { level: 8, movetimeMs: 60_000, useBook: false };
/** Analysis asked for on any position (`analyse()`): until stopped, as far as a search goes (an hour at most). */
const OPEN_ANALYSIS_MS = 3_600_000;
/** The least pause before a book move when the level paces the think: a glance, not a search. */
const BOOK_PAUSE_MS = 400;
/** A hint: full strength for a second. */
const HINT_MS = 1000;

/** A fresh 32-bit seed from the platform's random source. */
function randomSeed() {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0];
}

/**
 * The play options the controller reads.
 * @typedef {object} PlayOptions
 * @property {"white"|"black"|"both"|"none"} player who the human plays
 * @property {number} level 1 to 8
 * @property {string} think "level", "adaptive" or milliseconds per move
 * @property {number} thinkMinMs adaptive bounds
 * @property {number} thinkMaxMs
 * @property {boolean} book
 * @property {boolean} analysis analyse in two-human games
 * @property {{baseMs: number, incMs: number} | null} clock the time control, or null for none
 */

/**
 * The MultiPV lines with `event`'s line put in its place.
 * @param {object[] | undefined} lines
 * @param {any} event an iteration event
 */
function withLine(lines, event) {
  const at = event.multipv - 1;
  // A line from the last depth that starts with the new line's move is out of date: it goes.
  const next = (lines ?? []).map((line, i) => (i !== at && line?.pv[0] === event.pvUci[0] ? undefined : line));
  next[at] = { pv: event.pvUci, pvSan: event.pv, score: event.score, scoreWhite: event.scoreWhite, depth: event.depth };
  return next;
}

export class GameController extends EventTarget {
  /**
   * @param {object} setup
   * @param {any} setup.rules the wasm package (Game, levelThinkMs, …)
   * @param {() => any | Promise<any>} setup.createEngine makes an engine client (see engine/engine-client.js)
   * @param {Partial<PlayOptions>} [setup.options]
   * @param {number | null} [setup.seed] a fixed seed: every game replays the same way (null: a fresh seed per game)
   * @param {(level: number) => number} [setup.thinkMs] time a move takes by level with no time set
   * @param {any} [setup.memory] the shared memory (extras/memory.js), or a promise of it; null: none
   * @param {() => number} [setup.now] the clocks' time source in milliseconds (tests pass a fake one)
   * @param {any} [setup.Clock] the ChessClock class (extras/clock.js, loaded by the caller when a clock is set)
   * @param {Promise<any> | null} [setup.book] the opening book's installation in `rules` (engine/rules.js `loadBook`)
   */
  constructor({ rules, createEngine, options = {}, seed = null, thinkMs, memory = null, now, Clock = null, book = null }) {
    super();
    this.rules = rules;
    this.bookLoading = book;
    this.createEngine = createEngine;
    /** @type {PlayOptions} */
    this.options = { player: "white", level: 4, think: "level", thinkMinMs: 500, thinkMaxMs: 5000, book: true, analysis: true, clock: null, ...options };
    this.now = now ?? (() => performance.now());
    /** @type {any} the game's clocks (a ChessClock), when it has a time control */
    this.clock = null;
    this.Clock = Clock;
    this.thinkMs = thinkMs ?? ((level) => rules.levelThinkMs?.(level) ?? FALLBACK_THINK_MS[level - 1]);
    this.fixedSeed = seed;
    this.seed = seed ?? randomSeed();
    /** @type {any} the wasm Game */
    this.game = null;
    /** White-view scores by ply (the position before that ply's move), for the graph. */
    this.evals = [];
    /** The last evaluation a search gave (book moves keep it). */
    this.lastScore = null;
    /** @type {any} */
    this.engine = null;
    this.engineState = "off";
    this.engineMessage = "";
    this.engineStarts = 0;
    /** @type {{id: number, kind: string, ply: number, pacer: Pacer, progress: Record<string, any>} | null} */
    this.searching = null;
    this.searchIds = 0;
    /** Auto-play stopped by the person (engine against itself, after a take-back). */
    this.paused = false;
    /** Searches wait while the person looks at an earlier position, or while disconnected or read-only. */
    this.viewing = false;
    this.readonly = false;
    this.connected = true;
    /** The engine's draw offer, open until the person answers or moves. */
    this.drawOffered = false;
    this.wantHint = false;
    /** Analysis asked for on any position, with how many lines (1–5); null: the engine plays as set. */
    this.analysing = null;
    /** How many lines (MultiPV) an analysis shows, 1–5. */
    this.lines = 1;
    /** @type {import("../extras/memory.js").SharedMemory | null} */
    this.memory = null;
    this.memoryLoading = null;
    this.setMemory(memory);
  }

  // ——— Questions ———

  /** Whether the side to move is played by a human. */
  humanToMove() {
    // Analysing, the person moves for both sides.
    if (this.analysing) return true;
    const p = this.options.player;
    if (p === "both") return true;
    if (p === "none") return false;
    return this.game.turn() === p[0];
  }

  /** Whether the game is over. */
  isOver() {
    return Boolean(this.game?.outcome());
  }

  /** The colour the engine plays against a human ("w" or "b"), or null when it plays neither or both. */
  engineColor() {
    const p = this.options.player;
    return p === "white" ? "b" : p === "black" ? "w" : null;
  }

  /** Whether the human may offer the engine a draw now (only in a game against it). */
  canOfferDraw() {
    return Boolean(this.game) && !this.readonly && !this.isOver() && this.engineColor() !== null && this.engineState !== "failed";
  }

  /** Whether a hint may be asked for now. */
  canHint() {
    return Boolean(this.game) && !this.readonly && !this.viewing && !this.isOver() && this.humanToMove();
  }

  /** Whether the engine is searching its own move. */
  get thinking() {
    return this.searching?.kind === "play";
  }

  /** The search limits for the engine's move, from the options. */
  limits() {
    const { level, think, book, thinkMinMs, thinkMaxMs } = this.options;
    const limits = { level, useBook: book };
    if (this.clock) Object.assign(limits, this.clock.limits());
    if (think === "adaptive") Object.assign(limits, { thinkMinMs, thinkMaxMs });
    else if (think !== "level") limits.movetimeMs = Number(think);
    // Level 8 has no depth cap, so "by level" gives it the level's time; weaker levels stop at their caps.
    else if (level === 8) limits.movetimeMs = this.thinkMs(8);
    return limits;
  }

  // ——— Game ———

  /**
   * Takes a game to play (the first one, or a replacement) and starts thinking if it is the engine's turn.
   * @param {any} game a wasm Game
   * @param {(object | null)[]} [evals] stored evaluations by ply
   * @param {{baseMs: number, incMs: number, w: number, b: number} | null} [clocks] a stored game's clocks: their times
   *   left carry on where the time control is still the same
   */
  setGame(game, evals = [], clocks = null) {
    this.cancel();
    if (this.game && this.game !== game) this.game.free?.();
    this.game = game;
    this.evals = evals;
    this.lastScore = null;
    this.paused = false;
    this.drawOffered = false;
    // A new game is shown live: a history view of the old one ends with it (the element resets its own ply).
    this.viewing = false;
    if (this.fixedSeed === null) this.seed = randomSeed();
    this.engine?.newGame?.();
    this.resetClock(clocks);
    // A game that goes on from its moves (a restored or loaded one) runs its side to move's clock at once.
    this.runClock();
    this.emit("position", { animate: false });
    if (this.isOver()) this.emitGameOver();
    else this.think();
  }

  /**
   * Plays a move given in UCI or SAN; returns what was played, or null (and an `error` event) when illegal.
   * @param {string} text
   * @param {"human" | "engine"} [by]
   */
  move(text, by = "human") {
    if (this.isOver()) {
      this.fail(`illegal move: ${text} (the game is over)`);
      return null;
    }
    let played;
    try {
      played = this.game.play(text);
    } catch (err) {
      this.fail(err instanceof Error ? err.message : String(err));
      return null;
    }
    this.cancel();
    // A move by the person answers an open draw offer with "no".
    if (by === "human") this.drawOffered = false;
    this.clock?.moved(this.game.turn() === "w" ? "b" : "w", this.isOver() || !this.connected || Boolean(this.analysing));
    this.emit("position", { animate: true });
    this.emit("move", { san: played.san, uci: played.uci, fen: played.fen, by, played });
    if (this.isOver()) this.emitGameOver();
    else this.think();
    return played;
  }

  /** Takes back a move (back to the human's turn against the engine); returns whether one was taken back. */
  undo() {
    if (!this.game || this.game.ply() === 0) return false;
    if (this.game.outcome()?.reason === "time") return this.fail("the game was lost on time: start a new game"), false;
    this.cancel();
    this.game.undo();
    const p = this.options.player;
    if ((p === "white" || p === "black") && !this.humanToMove() && this.game.ply() > 0) this.game.undo();
    if (p === "none") this.paused = true;
    this.afterHistoryChange();
    return true;
  }

  /** Replays a move taken back (both moves against the engine); returns whether one was replayed. */
  redo() {
    if (!this.game?.redoCount()) return false;
    this.cancel();
    this.game.redo();
    const p = this.options.player;
    if ((p === "white" || p === "black") && !this.humanToMove() && this.game.redoCount() > 0) this.game.redo();
    this.afterHistoryChange();
    return true;
  }

  afterHistoryChange() {
    this.drawOffered = false;
    this.runClock();
    this.emit("position", { animate: true });
    this.think();
  }

  /** The human resigns (the side they play; in two-human games the side to move). */
  resign() {
    if (!this.game || this.isOver()) return;
    const p = this.options.player;
    this.cancel();
    this.game.resign(p === "white" ? "w" : p === "black" ? "b" : this.game.turn());
    this.emit("position", { animate: false });
    this.emitGameOver();
  }

  /**
   * Answers the engine's open draw offer.
   * @param {boolean} accept
   */
  answerDrawOffer(accept) {
    if (!this.drawOffered) return;
    this.drawOffered = false;
    if (accept && !this.isOver()) {
      this.cancel();
      this.game.agreeDraw();
      this.emit("position", { animate: false });
      this.emitGameOver();
    } else this.emit("position", { animate: false });
  }

  /**
   * Offers the engine a draw; resolves to whether it accepted (null when no offer could be made).
   * @returns {Promise<boolean | null>}
   */
  async offerDraw() {
    if (!this.canOfferDraw()) return null;
    const color = /** @type {"w" | "b"} */ (this.engineColor());
    const engine = await this.ensureEngine();
    if (!engine || !this.canOfferDraw()) return null;
    const ply = this.game.ply();
    let accepted;
    try {
      accepted = await engine.acceptsDraw(this.game.startFen(), this.game.historyUci(), color);
    } catch (err) {
      if (err?.name !== "AbortError") this.engineFailed(err);
      return null;
    }
    // The game moved on while the engine thought: the offer no longer stands.
    if (this.game.ply() !== ply || this.isOver()) return null;
    this.emit("drawanswer", { accepted });
    if (accepted) {
      this.cancel();
      this.game.agreeDraw();
      this.emit("position", { animate: false });
      this.emitGameOver();
    }
    return accepted;
  }

  emitGameOver() {
    this.cancel();
    this.runClock();
    this.drawOffered = false;
    const outcome = this.game.outcome();
    this.emit("gameover", { result: outcome.result, reason: outcome.reason });
  }

  // ——— Options ———

  /**
   * Changes play options; the engine picks them up from its next search (a changed player or analysis
   * setting takes effect at once).
   * @param {Partial<PlayOptions>} changes
   */
  configure(changes) {
    const before = { ...this.options };
    Object.assign(this.options, changes);
    if (!PLAYERS.includes(this.options.player)) this.options.player = before.player;
    this.options.level = Math.max(1, Math.min(8, Math.round(this.options.level) || 1));
    if (this.options.player !== before.player) {
      this.paused = false;
      this.drawOffered = false;
      this.think();
    } else if (this.options.analysis !== before.analysis && this.options.player === "both") this.think();
  }

  /**
   * Fixes the seed (every game then replays the same way against the same moves), or with null draws a fresh one
   * per game.
   * @param {number | null} seed
   */
  setSeed(seed) {
    this.fixedSeed = seed;
    this.seed = seed ?? randomSeed();
  }

  /** Auto-play on and off: the engine plays both sides, or hands back to the player it replaced. */
  toggleAutoplay() {
    if (this.options.player !== "none") {
      this.previousPlayer = this.options.player;
      this.configure({ player: "none" });
    } else if (this.paused) {
      this.paused = false;
      this.think();
    } else this.configure({ player: this.previousPlayer ?? "white" });
  }

  /** The person looks at an earlier position (no searches), or comes back to the game. */
  setViewing(viewing) {
    if (this.viewing === viewing) return;
    this.viewing = viewing;
    if (viewing) this.cancel();
    else this.think();
  }

  /** A read-only viewer has no engine at all. */
  setReadonly(readonly) {
    this.readonly = readonly;
    // A viewer has no clocks; back in play, the game's clocks start afresh.
    this.resetClock();
    this.runClock();
    if (readonly) this.stopEngine();
    else this.think();
  }

  /** The player left the page (engine stopped) or came back. */
  setConnected(connected) {
    this.connected = connected;
    this.runClock();
    if (connected) this.think();
    else this.stopEngine();
  }

  /**
   * Uses a shared memory (extras/memory.js) for full-strength searches from the next one, or none (null). A promise
   * (the module still loading) makes the next search wait for it.
   * @param {any} memory
   */
  setMemory(memory) {
    const settle = (m) => {
      if (this.memoryLoading !== loading) return;
      this.memoryLoading = null;
      this.memory = m ?? null;
      if (this.memory) this.memory.onstatus = ({ offline, slow, reason }) => this.emit("memory", offline ? { state: "offline", reason } : slow ? { state: "slow", reason } : { state: "online" });
    };
    const loading = memory && typeof memory.then === "function" ? memory : null;
    if (this.memory) this.memory.onstatus = null;
    this.memory = null;
    this.memoryLoading = loading;
    if (!loading) return settle(memory);
    loading.then(settle, (err) => {
      if (this.memoryLoading !== loading) return;
      settle(null);
      this.fail(`memory: the shared memory's module could not load (${err?.message ?? err}); playing without it`);
    });
  }

  // ——— Engine ———

  /** Starts the search the position calls for: the engine's move, or analysis in two-human games. */
  think() {
    this.cancel();
    if (!this.game || this.readonly || this.viewing || !this.connected || this.isOver()) return;
    if (this.engineState === "failed") return;
    if (this.analysing) return void this.search("analyse", { ...ANALYSIS_LIMITS, movetimeMs: OPEN_ANALYSIS_MS, multipv: this.lines, purpose: "analyse" });
    if (this.humanToMove()) {
      if (this.options.player === "both" && this.options.analysis) this.search("analyse", { ...ANALYSIS_LIMITS, multipv: this.lines, purpose: "analyse" });
      return;
    }
    if (this.paused) return;
    this.search("play", { ...this.limits(), purpose: "play" });
  }

  /**
   * Analyses every position from now on with `lines` best lines (1–5; MultiPV), whoever is to move: the engine
   * does not play until `stopAnalysis`.
   * @param {number} lines
   */
  analyse(lines = this.lines) {
    this.lines = Math.max(1, Math.min(5, Math.round(lines) || 1));
    this.analysing = { lines: this.lines };
    this.runClock();
    this.think();
  }

  /** Ends `analyse`: the engine plays again as the options say. */
  stopAnalysis() {
    if (!this.analysing) return;
    this.analysing = null;
    this.runClock();
    this.think();
  }

  /** Suggests a move for the human: from the running analysis, else a short search. */
  hint() {
    if (!this.canHint()) return;
    const best = this.searching?.kind === "analyse" ? this.searching.progress.bestUci : null;
    if (best) return this.emit("hint", { uci: best, san: this.searching?.progress.best ?? null, book: false });
    this.search("hint", { level: 8, movetimeMs: HINT_MS, useBook: this.options.book, purpose: "hint" });
  }

  /** Makes the engine play its best move so far, or resumes paused auto-play. */
  moveNow() {
    if (this.searching?.kind === "play") {
      // The pacing is skipped: the person asked for the move now.
      this.searching.pacer.deadline = 0;
      this.engine?.moveNow?.();
    } else if (this.paused) {
      this.paused = false;
      this.think();
    }
  }

  /** Drops the failed engine and starts a new one. */
  retryEngine() {
    this.stopEngine();
    this.engineState = "off";
    this.engineMessage = "";
    this.emit("engine", { state: "off", message: "" });
    this.think();
  }

  /** The engine client, started if needed; null when it cannot start. */
  async ensureEngine() {
    if (this.engine) return this.engine;
    if (this.engineState === "failed") return null;
    this.engineLoading ??= this.startEngine().finally(() => (this.engineLoading = null));
    return this.engineLoading;
  }

  async startEngine() {
    this.setEngineState("loading", "");
    let client;
    try {
      client = await this.createEngine();
    } catch (err) {
      this.engineFailed(err, "The engine could not start");
      return null;
    }
    if (!this.connected || this.readonly) {
      client.destroy?.();
      this.setEngineState("off", "");
      return null;
    }
    this.engine = client;
    client.addEventListener?.("restart", (event) => {
      // A worker that will not start even when nothing waits on it: say so (a waiting search fails by itself).
      const known = this.engineState === "failed";
      if (event.detail?.givingUp && client === this.engine && !this.searching && !known) this.engineFailed(new Error(event.detail.reason));
    });
    client.addEventListener?.("error", (event) => this.fail(`engine: ${event.detail?.message}`, true));
    // The worker says on start whether level 8 has its net; the player shows it when not.
    client.addEventListener?.("ready", () => client === this.engine && this.emit("engine", { state: this.engineState, message: this.engineMessage }));
    client.preload?.();
    this.engineStarts++;
    this.setEngineState("ready", "");
    this.emit("enginestart", { starts: this.engineStarts });
    return client;
  }

  /** Ends the engine worker. */
  stopEngine() {
    this.cancel();
    if (!this.engine) return;
    this.engine.destroy();
    this.engine = null;
    if (this.engineState !== "failed") this.setEngineState("off", "");
    this.emit("enginestop", { starts: this.engineStarts });
  }

  /**
   * Why searches at the levels that use a net (`levelUsesNet`) run without it (its file did not load); null when
   * they have it.
   */
  get netError() {
    return this.engine?.netError ?? null;
  }

  setEngineState(state, message) {
    if (this.engineState === state && this.engineMessage === message) return;
    this.engineState = state;
    this.engineMessage = message;
    this.emit("engine", { state, message });
  }

  /**
   * The engine failed: searches stop until the person retries; the message reaches them.
   * @param {unknown} err
   * @param {string} [prefix]
   */
  engineFailed(err, prefix = "The engine stopped") {
    const text = err instanceof Error ? err.message : String(err);
    this.cancel();
    // Shown as a sentence in the thinking panel: it ends with a full stop.
    this.setEngineState("failed", `${prefix}: ${text}${/[.!?]$/.test(text) ? "" : "."}`);
    this.fail(`engine: ${text}`, true);
  }

  /**
   * Runs one search; `kind` says what to do with its result.
   * @param {"play" | "hint" | "analyse"} kind
   * @param {object} limits
   */
  async search(kind, limits) {
    this.cancel();
    const id = ++this.searchIds;
    const ply = this.game.ply();
    let paced = kind === "play" && this.options.think === "level" ? this.thinkMs(this.options.level) : 0;
    // On the clock the level's visible think takes no more than a fortieth of the time left.
    if (this.clock && paced) paced = Math.min(paced, this.clock.timeLeft(this.game.turn()) / 40 + this.clock.incMs / 2);
    const progress = {};
    const pacer = new Pacer(paced, (event) => this.onProgress(id, event));
    this.searching = { id, kind, ply, pacer, progress };
    this.emit("searchstart", { kind });
    const engine = await this.ensureEngine();
    if (this.searching?.id !== id) return;
    if (!engine) return this.endSearch(id);
    const request = { ...{},
      fen: this.game.startFen(),
      moves: this.game.historyUci(),
      ...limits,
      seed: (this.seed ^ Math.imul(ply + 1, 0x9e3779b1)) >>> 0,
    };
    const fen = this.game.fen();
    // A slow memory's answer cannot be waited for: the engine searches at once, and a stored move arriving while
    // most of its time is still to come stops it (see `recall`).
    const slow = Boolean(this.memory?.slow);
    if (!slow && (await this.recall(id, limits))) return;
    if (this.searching?.id !== id) return;
    if (slow) void this.recall(id, limits, this.now());
    engine.search(request, { onProgress: (event) => pacer.push(event) }).then(
      (result) => {
        this.memorise(limits, fen, result);
        if (result.book) pacer.shorten(BOOK_PAUSE_MS);
        pacer.done(() => this.onResult(id, result));
      },
      (err) => {
        if (this.searching?.id !== id || err?.name === "AbortError") return;
        this.engineFailed(err);
      },
    );
  }

  // ——— Clocks ———

  /**
   * Sets the time control ({baseMs, incMs}, or null for none). It applies at once before the first move or after
   * the game's end, otherwise from the next game.
   * @param {{baseMs: number, incMs: number} | null} control
   * @param {any} [Clock] the ChessClock class (extras/clock.js), needed once for any control
   */
  setClock(control, Clock = this.Clock) {
    this.options.clock = control;
    this.Clock = Clock;
    if (!this.game || this.game.ply() === 0 || this.isOver()) {
      this.resetClock();
      this.think();
    }
  }

  /**
   * New clocks at the time control's start (none without one, or in a read-only viewer), or at the times `left` of a
   * stored game when it was played at this same control.
   * @param {{baseMs: number, incMs: number, w: number, b: number} | null} [left]
   */
  resetClock(left = null) {
    this.clock?.stop();
    const hooks = { onFlag: (color) => this.flag(color), onChange: () => this.emit("clock", {}) };
    const control = this.options.clock;
    this.clock = control && this.Clock && !this.readonly ? new this.Clock(control, this.now, hooks) : null;
    if (this.clock && left && left.baseMs === control.baseMs && left.incMs === control.incMs) this.clock.left = { w: left.w, b: left.b };
    this.emit("clock", {});
  }

  /**
   * The side to move's clock runs while a game goes on past its first move and the player is on the page (and not
   * while `analyse()` holds the engine back).
   */
  runClock() {
    if (!this.game) return;
    const running = this.game.ply() > 0 && !this.isOver() && this.connected && !this.analysing;
    this.clock?.run(running ? this.game.turn() : null);
  }

  /**
   * A clock ran out: a loss, or a draw when the opponent cannot mate.
   * @param {"w" | "b"} color
   */
  flag(color) {
    if (this.isOver()) return;
    this.cancel();
    this.game.flag(color);
    this.emit("position", { animate: false });
    this.emitGameOver();
  }

  // ——— Shared memory ———

  /**
   * The memory to use for a search with `limits`: only full-strength ones (level 8 play, analysis, hints; the
   * weaker levels' noise is the point) out of the book (the book answers first and is not submitted).
   * @param {object} limits
   */
  async memoryFor(limits) {
    if (this.memoryLoading) await this.memoryLoading.catch(() => null);
    // The memory names the engine with its net: a search without it is another engine's.
    if (!this.memory || limits.level !== 8 || this.netError) return null;
    // Whether the position is in the book is known once the book is installed (it is fetched after the board).
    if (limits.useBook) await this.bookLoading?.catch(() => null);
    if (limits.useBook && this.game.bookMove?.(0) !== undefined) return null;
    return this.memory;
  }

  /** Think time of a full-strength search, which keys the depth it is expected to reach. */
  memoryTime(limits) {
    return limits.movetimeMs ?? limits.thinkMaxMs ?? this.thinkMs(8);
  }

  /**
   * Asks the memory for the position before a full-strength search; a verified move searched at least as deep
   * as this search would go, and legal here, is used instead of searching. Returns whether it was.
   * With `searchingSince` (a slow memory, asked while the search runs), the answer is waited for however late, and
   * a stored move that comes while less than half the search's time has passed stops the search and is played: the
   * engine's worker is restarted for that, which costs less than the time saved.
   * @param {number} id
   * @param {object} limits
   * @param {number} [searchingSince] when the search began (`now()`)
   */
  async recall(id, limits, searchingSince) {
    const memory = await this.memoryFor(limits);
    if (!memory || this.searching?.id !== id) return false;
    const fen = this.game.fen();
    const depth = memory.expectedDepth(this.memoryTime(limits));
    const late = searchingSince !== undefined;
    const entry = await (late ? memory.lookupLate(fen, depth) : memory.lookup(fen, depth));
    const running = this.searching;
    if (!entry || running?.id !== id || this.game.fen() !== fen) return false;
    if (late && this.now() - searchingSince > this.memoryTime(limits) / 2) return false;
    const legal = this.game.legalMoves();
    const move = legal.find((m) => m.uci === entry.move);
    if (!move) {
      memory.fail(`it answered ${entry.move}, which is not a legal move here`);
      return false;
    }
    const { pvUci, pv } = this.playablePv(fen, entry.pv, move);
    const white = this.game.turn() === "w";
    const scoreWhite = white ? entry.score : "cp" in entry.score ? { cp: -entry.score.cp } : { mate: -entry.score.mate };
    const players = `${entry.confirmations} player${entry.confirmations === 1 ? "" : "s"}`;
    const text = `From the shared memory: ${move.san}, depth ${entry.depth}, ${players}`;
    running.progress.text = text;
    this.emit("memory", { state: "hit", kind: running.kind, san: move.san, uci: move.uci, depth: entry.depth, players: entry.confirmations, text });
    // The search gives way (its promise rejects as stopped, which is not a failure).
    if (late) this.engine?.stop?.();
    const { score, nodes } = entry;
    this.onProgress(id, { type: "iteration", depth: entry.depth, seldepth: entry.depth, score, scoreWhite, nodes, nps: 0, elapsedMs: 0, pv, pvUci });
    const result = { best: move.uci, bestSan: move.san, ponder: pvUci[1] ?? null, score, scoreWhite, resign: false, depth: entry.depth, nodes, elapsedMs: 0, pvUci, book: false, offerDraw: false, memory: true };
    // Like a book move: a glance, not the level's whole think.
    running.pacer.shorten(BOOK_PAUSE_MS);
    running.pacer.done(() => this.onResult(id, result));
    return true;
  }

  /**
   * The stored line as far as it is legal from `fen`, in UCI and SAN, starting with `move`.
   * @param {string} fen
   * @param {string[]} line
   * @param {{uci: string, san: string}} move
   */
  playablePv(fen, line, move) {
    const pvUci = [move.uci];
    const pv = [move.san];
    const board = new this.rules.Game(fen);
    try {
      board.play(move.uci);
      for (const uci of line.slice(1, 32)) {
        const played = board.legalMoves().find((m) => m.uci === uci);
        if (!played) break;
        board.play(uci);
        pvUci.push(uci);
        pv.push(played.san);
      }
    } finally {
      board.free?.();
    }
    return { pvUci, pv };
  }

  /**
   * Submits a completed full-strength search to the memory in the background, and notes the depth it reached
   * (the depth later lookups ask for).
   * @param {object} limits
   * @param {string} fen the position searched
   * @param {import("../engine/protocol.js").SearchResult} result
   */
  memorise(limits, fen, result) {
    const memory = this.memory;
    if (!memory || limits.level !== 8 || this.netError || result.book || result.stopped || !result.best || result.depth < 1) return;
    memory.noteDepth(this.memoryTime(limits), result.depth);
    const pv = result.pvUci?.[0] === result.best ? result.pvUci : [result.best];
    void memory.submit({ fen, depth: result.depth, move: result.best, score: result.score, pv, nodes: result.nodes });
  }

  /** Calls off the running search; its result is ignored. */
  cancel() {
    const running = this.searching;
    if (!running) return;
    this.searching = null;
    running.pacer.cancel();
    this.engine?.stop?.();
    this.emit("searchend", { kind: running.kind });
  }

  endSearch(id) {
    const running = this.searching;
    if (running?.id !== id) return;
    this.searching = null;
    this.emit("searchend", { kind: running.kind });
  }

  onProgress(id, event) {
    const running = this.searching;
    if (running?.id !== id) return;
    const p = running.progress;
    if (event.type === "root") {
      const { text, move, index, count, replies, nodes, best, bestUci, score, scoreWhite } = event;
      Object.assign(p, { text, move, index, count, replies, nodes, best, bestUci, score, scoreWhite });
      if (event.depth) p.depth = event.depth;
    } else if (event.type === "iteration" && event.multipv > 1) {
      // A further MultiPV line: only the list of lines changes.
      p.lines = withLine(p.lines, event);
    } else if (event.type === "iteration") {
      if (event.multipv) p.lines = withLine(p.lines, event);
      const { depth, seldepth, score, scoreWhite, nodes, nps, elapsedMs, pv } = event;
      Object.assign(p, { depth, seldepth, score, scoreWhite, nodes, nps, elapsedMs, pv });
      if (event.pv?.[0]) p.best = event.pv[0];
      if (event.pvUci?.[0]) p.bestUci = event.pvUci[0];
      // Hints are short and shallow: only play and analysis speak for the position's evaluation.
      if (scoreWhite && running.kind !== "hint") {
        this.evals[running.ply] = scoreWhite;
        this.lastScore = scoreWhite;
      }
    } else return;
    this.emit("thinking", { kind: running.kind, ...p });
  }

  onResult(id, result) {
    const running = this.searching;
    if (running?.id !== id) return;
    this.searching = null;
    const { kind, ply } = running;
    if (result.book) {
      // A book move has no evaluation of its own: the last searched one stands.
      if (this.lastScore) this.evals[ply] = this.lastScore;
      this.emit("book", { san: result.bestSan ?? result.best, kind });
    } else if (result.scoreWhite && kind !== "hint" && result.best) {
      this.evals[ply] = result.scoreWhite;
      this.lastScore = result.scoreWhite;
    }
    this.emit("searchend", { kind, result });
    if (kind === "hint") return void (result.best && this.emit("hint", { uci: result.best, san: result.bestSan, book: result.book }));
    if (kind === "analyse") return;
    if (result.resign && this.engineColor()) {
      this.game.resign(this.game.turn());
      this.emit("position", { animate: false });
      return this.emitGameOver();
    }
    if (!result.best) return;
    const played = this.move(result.best, "engine");
    // Only a human opponent is offered a draw; an engine playing itself plays on.
    if (played && result.offerDraw && this.engineColor() && !this.isOver()) {
      this.drawOffered = true;
      this.emit("drawoffer", {});
    }
  }

  // ——— Events ———

  /** Fires a CustomEvent. */
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /**
   * Reports an error.
   * @param {string} message
   * @param {boolean} [engine] whether it came from the engine
   */
  fail(message, engine = false) {
    this.lastError = message;
    this.emit("error", { message, engine });
  }

  /** Ends everything (the controller is not used again). */
  dispose() {
    this.connected = false;
    this.clock?.stop();
    this.stopEngine();
    // A memory request still running (up to its answer limit) must not report on a player that is gone.
    this.setMemory(null);
  }
}
