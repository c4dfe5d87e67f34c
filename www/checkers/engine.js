// The page's side of the checkers engine: starts the worker, sends one search at a time, relays its progress,
// and stops a search at once by terminating the worker (a running wasm loop cannot read messages).

const WORKER_URL = new URL("./worker.js", import.meta.url);

/**
 * An Error named "AbortError", for searches called off.
 * @param {string} message
 */
function abortError(message) {
  const error = new Error(message);
  error.name = "AbortError";
  return error;
}

/** Runs the checkers engine in a module worker. */
export class CheckersEngine {
  /** @type {Worker | null} */
  #worker = null;
  #nextId = 1;
  /** @type {{id: number, resolve: Function, reject: Function, onProgress?: Function} | null} */
  #search = null;
  #workerUrl;

  /** @param {{workerUrl?: string | URL}} [options] */
  constructor({ workerUrl = WORKER_URL } = {}) {
    this.#workerUrl = workerUrl;
  }

  /** Whether a search is running. */
  get busy() {
    return this.#search !== null;
  }

  /** Starts the worker now, so that the first search does not wait for it to load. */
  preload() {
    this.#start();
  }

  /** The worker, started when missing. */
  #start() {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#workerUrl, { type: "module" });
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.#fail(`the checkers engine could not start${event.message ? `: ${event.message}` : ""}`);
    };
    this.#worker = worker;
    return worker;
  }

  /** Ends the worker and fails the search in flight with `message`. */
  #fail(message) {
    this.#worker?.terminate();
    this.#worker = null;
    const pending = this.#search;
    this.#search = null;
    pending?.reject(new Error(message));
  }

  /** @param {any} msg */
  #receive(msg) {
    const pending = this.#search;
    if (msg?.type === "error" && msg.fatal) return this.#fail(msg.message);
    if (!pending || msg?.id !== pending.id) return;
    if (msg.type === "progress") pending.onProgress?.(msg.event);
    else if (msg.type === "result") {
      this.#search = null;
      pending.resolve(msg.result);
    } else if (msg.type === "error") {
      this.#search = null;
      pending.reject(new Error(msg.message));
    }
  }

  /**
   * Searches `request` ({fen, moves, level, movetimeMs?, seed?}); resolves with {best, score, depth, nodes, pv, forced}.
   * @param {object} request
   * @param {{onProgress?: (event: any) => void}} [options]
   */
  search(request, { onProgress } = {}) {
    if (this.#search) this.cancel();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#search = { id, resolve, reject, onProgress };
      try {
        this.#start().postMessage({ type: "search", id, request });
      } catch (err) {
        this.#search = null;
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /** Calls off the running search (its promise rejects with an AbortError); a fresh worker starts on next use. */
  cancel() {
    const pending = this.#search;
    if (!pending) return;
    this.#search = null;
    this.#worker?.terminate();
    this.#worker = null;
    pending.reject(abortError("search called off"));
  }

  /** Tells the engine a new game starts (it forgets its tables). */
  newGame() {
    if (this.#worker && !this.#search) this.#worker.postMessage({ type: "newgame" });
  }

  /** Stops everything. */
  destroy() {
    this.cancel();
    this.#worker?.terminate();
    this.#worker = null;
  }
}
