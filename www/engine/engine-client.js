// The page's side of the engine: starts the worker, sends searches, relays progress, and keeps
// the game going when the worker has to be replaced.

import { checkToWorker } from "./protocol.js";

/** @typedef {import("./protocol.js").SearchRequest} SearchRequest */
/** @typedef {import("./protocol.js").SearchResult} SearchResult */
/** @typedef {import("./protocol.js").ProgressEvent} ProgressEvent */

/** The worker script, next to this file. */
const WORKER_URL = new URL("./worker.js", import.meta.url);

/** Crashes in a row (without a `ready` between) after which the client stops restarting on its own. */
const MAX_FAILED_STARTS = 3;

/**
 * A request as `search` takes it: the protocol's fields plus a move to fall back on.
 * @typedef {SearchRequest & {fallbackMove?: string}} ClientRequest
 */

/**
 * The search in flight.
 * @typedef {object} Pending
 * @property {number} id
 * @property {SearchRequest} request
 * @property {string | undefined} fallbackMove
 * @property {(result: SearchResult) => void} resolve
 * @property {(error: Error) => void} reject
 * @property {((event: ProgressEvent) => void) | undefined} onProgress
 * @property {SearchResult | null} best the best move reported so far, as a result
 */

/**
 * An Error whose name is "AbortError", for searches that were called off.
 * @param {string} message
 */
function abortError(message) {
  const error = new Error(message);
  error.name = "AbortError";
  return error;
}

/**
 * Runs the engine in a module worker. Events: `ready` (the worker loaded), `progress`
 * (detail: a ProgressEvent), `restart` (detail: {reason, givingUp}: the worker crashed or was replaced
 * after a crash; `givingUp` when it failed too often in a row and no new one starts until the next request), `error` (detail: {message}: something went wrong outside any search).
 */
export class EngineClient extends EventTarget {
  /** @type {Worker | null} */
  #worker = null;
  #workerUrl;
  #hashMb;
  #nextId = 1;
  /** @type {Pending | null} */
  #search = null;
  /** @type {Map<number, {resolve: (accepts: boolean) => void, reject: (error: Error) => void}>} */
  #draws = new Map();
  #failedStarts = 0;
  #destroyed = false;
  /** Whether the worker's searches at the levels that use a net (`levelUsesNet`) evaluate with it (null until said). */
  net = null;
  /** Why they do not, when the net failed to load (shown in the player); null otherwise. */
  netError = null;
  #createWorker;
  /** @type {Promise<Uint8Array | null> | null} */
  #book;

  /**
   * Creates a client; the worker starts on first use (or `preload()`).
   * `createWorker` makes the worker from its URL: a module Web Worker by default; Node passes a
   * worker_threads adapter with the same `postMessage`, `onmessage`, `onerror` and `terminate`.
   * `book`: the page's copy of the opening book (pkg/openings.bin, as engine/rules.js `loadBook` resolves; a
   * rejection or null when the page has none), handed to every worker this client starts; without it each worker
   * downloads the file.
   * @param {{hashMb?: number, workerUrl?: string | URL, createWorker?: (url: URL) => Worker, book?: Promise<Uint8Array | null> | null}} [options]
   */
  constructor({ hashMb = 16, workerUrl = WORKER_URL, createWorker = (url) => new Worker(url, { type: "module" }), book = null } = {}) {
    super();
    this.#hashMb = hashMb;
    this.#workerUrl = workerUrl;
    this.#createWorker = createWorker;
    // A page without the book (a rejection) hands over null.
    this.#book = book ? Promise.resolve(book).catch(() => null) : null;
  }

  /** Whether the worker failed to start so often in a row that the client stopped trying (see `retry`). */
  get unavailable() {
    return this.#failedStarts >= MAX_FAILED_STARTS;
  }

  /** Starts again after the client gave up on a worker that would not start. */
  retry() {
    if (this.#destroyed) return;
    this.#failedStarts = 0;
    this.#start();
  }

  /** Starts the worker now, so that the first search does not wait for it to load. */
  preload() {
    if (!this.#destroyed) this.#start();
  }

  /** Whether a search is running. */
  get busy() {
    return this.#search !== null;
  }

  /**
   * Searches a position. A search still running is called off (its promise rejects with an AbortError).
   * @param {ClientRequest} request
   * @param {{onProgress?: (event: ProgressEvent) => void}} [options] called for each progress event
   * @returns {Promise<SearchResult>}
   */
  search(request, { onProgress } = {}) {
    if (this.#destroyed) return Promise.reject(new Error("the engine client was destroyed"));
    if (request === null || typeof request !== "object") return Promise.reject(new Error("a search request must be an object"));
    if (this.#search) this.#callOff(abortError("search superseded by a new one"));
    const { fallbackMove, ...fields } = request;
    const id = this.#nextId++;
    const message = { ...fields, type: "search", id };
    const problem = checkToWorker(message);
    if (problem) return Promise.reject(new Error(problem));
    return new Promise((resolve, reject) => {
      this.#search = { id, request: fields, fallbackMove, resolve, reject, onProgress, best: null };
      try {
        this.#start().postMessage(message);
      } catch (err) {
        this.#search = null;
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /**
   * Ends the running search at once and resolves with the best move it reported (`stopped: true`).
   * A running wasm loop cannot read messages, so the only way to stop it within a frame is to
   * terminate its worker; a fresh worker starts in the background for the next search.
   * With nothing reported yet, the result is the request's `fallbackMove`, else a depth-1 search.
   * @returns {Promise<SearchResult | null>} null when no search is running
   */
  moveNow() {
    const pending = this.#search;
    if (!pending) return Promise.resolve(null);
    this.#search = null;
    this.#replaceWorker();
    let result = pending.best;
    if (!result && pending.fallbackMove) result = bestSoFar(pending.fallbackMove, null, null, 0, 0);
    if (result) {
      const stopped = { ...result, stopped: true };
      pending.resolve(stopped);
      return Promise.resolve(stopped);
    }
    const { fen, moves } = pending.request;
    const quick = this.search({ fen, moves, depth: 1 }).then((r) => ({ ...r, stopped: true }));
    quick.then(pending.resolve, pending.reject);
    return quick;
  }

  /** Calls off the running search: its promise rejects with an AbortError. */
  stop() {
    if (this.#search) this.#callOff(abortError("search stopped"));
  }

  /** Tells the engine a new game begins (it forgets its tables and time average). */
  newGame() {
    if (this.#worker && !this.#destroyed) this.#worker.postMessage({ type: "newgame" });
  }

  /**
   * Whether the engine, playing `color`, accepts a draw offer in the position after `moves` from `fen`
   * (a short search; the score is read from the engine's side whoever is to move).
   * @param {string | undefined} fen
   * @param {string[]} moves
   * @param {"w" | "b"} color the side the engine plays
   * @returns {Promise<boolean>}
   */
  acceptsDraw(fen, moves, color) {
    if (this.#destroyed) return Promise.reject(new Error("the engine client was destroyed"));
    const id = this.#nextId++;
    const message = { type: "draw", id, fen, moves: moves ?? [], color };
    const problem = checkToWorker(message);
    if (problem) return Promise.reject(new Error(problem));
    return new Promise((resolve, reject) => {
      this.#draws.set(id, { resolve, reject });
      try {
        this.#start().postMessage(message);
      } catch (err) {
        this.#draws.delete(id);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /** Stops everything and ends the worker; for when the player leaves the page. */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#failAll(new Error("the engine client was destroyed"));
    this.#worker?.terminate();
    this.#worker = null;
  }

  /** The worker, started if needed. */
  #start() {
    if (this.#worker) return this.#worker;
    const url = new URL(this.#workerUrl, globalThis.document?.baseURI ?? import.meta.url);
    url.searchParams.set("hash", String(this.#hashMb));
    if (this.#book) url.searchParams.set("book", "page");
    const worker = this.#createWorker(url);
    worker.onmessage = (event) => this.#receive(worker, event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      // A worker that never loads (a missing file, a server refusing it) gives no message: name the file.
      const why = event.message
        ? `its worker failed (${event.message})`
        : `its worker ${url.pathname} could not be loaded. Check that the engine/ and pkg/ folders are next to homeostat.js`;
      this.#crash(worker, why);
    };
    worker.onmessageerror = () => this.#crash(worker, "a message from the engine could not be read");
    this.#worker = worker;
    // The worker waits for the book before it answers: it gets the bytes, or null when the page has none.
    const handOver = (/** @type {unknown} */ bytes) => {
      if (worker !== this.#worker) return;
      try {
        worker.postMessage({ type: "book", bytes: bytes instanceof Uint8Array ? bytes : null });
      } catch (err) {
        this.#crash(worker, `the opening book could not be handed to the engine: ${err?.message ?? err}`);
      }
    };
    this.#book?.then(handOver);
    return worker;
  }

  /**
   * Terminates the worker (busy with a search nobody wants) and starts a fresh one in a later
   * task, so that whoever waits for the move gets it before the new worker is set up.
   */
  #replaceWorker() {
    this.#worker?.terminate();
    this.#worker = null;
    // Draw questions were queued behind the search in the old worker: they fail too.
    const draws = [...this.#draws.values()];
    this.#draws.clear();
    for (const draw of draws) draw.reject(abortError("the engine was restarted"));
    setTimeout(() => {
      if (!this.#worker && !this.#destroyed) this.#start();
    }, 0);
  }

  /**
   * Rejects the running search and replaces the busy worker.
   * @param {Error} error
   */
  #callOff(error) {
    const pending = this.#search;
    this.#search = null;
    pending?.reject(error);
    this.#replaceWorker();
  }

  /**
   * Rejects everything waiting.
   * @param {Error} error
   */
  #failAll(error) {
    const pending = this.#search;
    this.#search = null;
    pending?.reject(error);
    for (const draw of this.#draws.values()) draw.reject(error);
    this.#draws.clear();
  }

  /**
   * The worker crashed or failed to load: fail what waited on it and start another.
   * @param {Worker} worker
   * @param {string} reason
   */
  #crash(worker, reason) {
    if (worker !== this.#worker) return;
    worker.terminate();
    this.#worker = null;
    this.#failedStarts += 1;
    this.#failAll(new Error(reason));
    const givingUp = this.#failedStarts >= MAX_FAILED_STARTS;
    this.dispatchEvent(new CustomEvent("restart", { detail: { reason, givingUp } }));
    if (!givingUp && !this.#destroyed) this.#start();
  }

  /**
   * Handles a message from `worker`; messages from replaced workers are ignored.
   * @param {Worker} worker
   * @param {import("./protocol.js").FromWorker} message
   */
  #receive(worker, message) {
    if (worker !== this.#worker || !message || typeof message !== "object") return;
    const pending = this.#search;
    const mine = pending !== null && message.type !== "ready" && "id" in message && message.id === pending.id;
    switch (message.type) {
      case "ready": {
        this.#failedStarts = 0;
        const known = this.netError;
        this.net = message.net ?? null;
        this.netError = message.net === false ? String(message.netError ?? "the neural net is not in use") : null;
        if (this.netError && this.netError !== known) this.dispatchEvent(new CustomEvent("error", { detail: { message: this.netError } }));
        this.dispatchEvent(new Event("ready"));
        return;
      }
      case "progress":
        if (!mine) return;
        pending.best = fromEvent(message.event) ?? pending.best;
        try {
          pending.onProgress?.(message.event);
        } catch (err) {
          console.error(err);
        }
        this.dispatchEvent(new CustomEvent("progress", { detail: message.event }));
        return;
      case "result": {
        if (!mine) return;
        this.#search = null;
        const { type: _type, id: _id, ...result } = message;
        pending.resolve(/** @type {SearchResult} */ (result));
        return;
      }
      case "draw": {
        const draw = this.#draws.get(message.id);
        this.#draws.delete(message.id);
        draw?.resolve(message.accepts);
        return;
      }
      case "error": {
        if (message.fatal) return this.#crash(worker, message.message);
        const error = new Error(message.message);
        if (mine) {
          this.#search = null;
          pending.reject(error);
        } else if (message.id !== undefined && this.#draws.has(Number(message.id))) {
          this.#draws.get(Number(message.id))?.reject(error);
          this.#draws.delete(Number(message.id));
        } else {
          this.dispatchEvent(new CustomEvent("error", { detail: { message: message.message } }));
        }
      }
    }
  }
}

/**
 * A result made of the best move so far.
 * @param {string} uci
 * @param {string | null} san
 * @param {import("./protocol.js").Score | null} score side to move's view
 * @param {number} depth
 * @param {number} nodes
 * @param {import("./protocol.js").Score | null} [scoreWhite]
 * @param {string[]} [pvUci]
 * @returns {SearchResult}
 */
function bestSoFar(uci, san, score, depth, nodes, scoreWhite = null, pvUci = [uci]) {
  const none = { cp: 0 };
  return {
    best: uci,
    bestSan: san,
    ponder: pvUci[1] ?? null,
    score: score ?? none,
    scoreWhite: scoreWhite ?? none,
    resign: false,
    depth,
    nodes,
    elapsedMs: 0,
    pvUci,
    book: false,
    offerDraw: false,
  };
}

/**
 * The best move a progress event reports, as a result; null if it names none.
 * @param {ProgressEvent} event
 * @returns {SearchResult | null}
 */
function fromEvent(event) {
  if (event?.type === "root" && event.bestUci) {
    return bestSoFar(event.bestUci, event.best, event.score, Math.max(0, event.depth - 1), event.nodes, event.scoreWhite);
  }
  if (event?.type === "iteration" && event.pvUci?.length) {
    return bestSoFar(event.pvUci[0], event.pv[0] ?? null, event.score, event.depth, event.nodes, event.scoreWhite, event.pvUci);
  }
  return null;
}
