// The engine's module worker: loads the wasm package and runs one search at a time.
// Protocol: see protocol.js. A search blocks this worker until it ends; the page stops one
// early by terminating the worker (see engine-client.js).

import { checkToWorker, requestOf } from "./protocol.js";
import { assertWasmSupport, fetchBytes, loadPackage } from "./wasm-support.js";

/** Hash table size in megabytes, from the worker URL's `?hash=` (16 by default). */
const HASH_MB = Number(new URL(import.meta.url).searchParams.get("hash")) || 16;

/** @type {any} the Searcher, once the package has loaded */
let searcher = null;
/** Set after a Rust panic: the wasm instance may be inconsistent, so nothing more runs in it. */
let crashed = false;

/**
 * Posts a message to the page.
 * @param {import("./protocol.js").FromWorker} message
 */
function send(message) {
  self.postMessage(message);
}

/**
 * Turns an exception into an error reply; a WebAssembly trap (a Rust panic) is fatal.
 * @param {unknown} err
 * @param {number | string | undefined} id
 */
function fail(err, id) {
  const trap = err instanceof WebAssembly.RuntimeError;
  if (trap) crashed = true;
  const text = err instanceof Error ? err.message : String(err);
  send({ type: "error", id, message: trap ? `engine crashed: ${text}` : text, fatal: trap || undefined });
}

/** The neural net for the levels that use one (`levelUsesNet`), written next to the package by `make wasm`. */
const NET_URL = new URL("../pkg/homeostat.nnue", import.meta.url);

/** The opening book and names (written next to the package by `make wasm`). */
const BOOK_URL = new URL("../pkg/openings.bin", import.meta.url);

/** Whether the page hands over its copy of the book (`?book=page`, a `book` message) instead of this worker fetching it. */
const BOOK_FROM_PAGE = new URL(import.meta.url).searchParams.get("book") === "page";

/** Settles the page's book: its bytes, or null when it has none. */
let takeBook = (/** @type {Uint8Array | null} */ _bytes) => {};
/** @type {Promise<Uint8Array | null>} */
const pageBook = new Promise((resolve) => {
  takeBook = resolve;
});

/** Why the net is not in use (null when it is): every level then plays with the hand-crafted evaluation. */
let netProblem = null;

/** @returns {import("./protocol.js").FromWorker} the ready message, which says whether the net is in use */
function readyMessage() {
  return netProblem === null ? { type: "ready", net: true } : { type: "ready", net: false, netError: netProblem };
}

/** Loads the package, the net and the book side by side; resolves once the Searcher exists. */
const loaded = (async () => {
  assertWasmSupport();
  const net = fetchBytes(NET_URL).catch((err) => err);
  const book = BOOK_FROM_PAGE ? pageBook : fetchBytes(BOOK_URL).catch(() => null);
  const pkg = await loadPackage(new URL("../pkg/homeostat_web.js", import.meta.url).href);
  searcher = new pkg.Searcher(HASH_MB);
  const bookBytes = await book;
  try {
    if (bookBytes) pkg.installBook(bookBytes);
  } catch {
    // The engine plays without its book; the page read the same file and its opening line says what failed.
  }
  const bytes = await net;
  try {
    if (bytes instanceof Error) throw bytes;
    searcher.setNet(bytes);
  } catch (err) {
    netProblem = `the engine's neural net did not load (${err?.message ?? err}): the engine plays with the hand-crafted evaluation, which is weaker`;
  }
})();

loaded.then(
  () => send(readyMessage()),
  (err) => send({ type: "error", message: `could not load the engine: ${err?.message ?? err}`, fatal: true }),
);

/**
 * Handles one message from the page.
 * @param {unknown} message
 */
function handle(message) {
  const problem = checkToWorker(message);
  const id = /** @type {any} */ (message)?.id;
  if (problem) return send({ type: "error", id, message: problem });
  if (crashed || !searcher) return send({ type: "error", id, message: "the engine is not available", fatal: true });
  const msg = /** @type {Record<string, any>} */ (message);
  try {
    switch (msg.type) {
      case "ping":
        return send(readyMessage());
      case "newgame":
        return searcher.newGame();
      case "draw":
        return send({ type: "draw", id, accepts: searcher.acceptsDraw(msg.fen ?? undefined, toStrings(msg.moves), msg.color) });
      case "search": {
        const onEvent = (event) => send({ type: "progress", id, event });
        const result = searcher.search(requestOf(msg), onEvent);
        return send({ type: "result", id, ...result });
      }
    }
  } catch (err) {
    fail(err, id);
  }
}

/**
 * The moves of a draw message as strings (a bad list becomes a clear error in Rust).
 * @param {unknown} moves
 * @returns {string[]}
 */
function toStrings(moves) {
  if (moves === undefined || moves === null) return [];
  if (!Array.isArray(moves)) throw new Error("moves must be an array of UCI strings");
  return moves.map(String);
}

self.onmessage = (event) => {
  // The page's book is taken at once: loading waits for it, and the other messages wait for loading.
  if (event.data?.type === "book") {
    const problem = checkToWorker(event.data);
    if (problem) send({ type: "error", message: problem });
    return takeBook(problem ? null : event.data.bytes);
  }
  // Messages wait for the package; the same settled promise keeps them in order.
  loaded.then(
    () => handle(event.data),
    () => send({ type: "error", id: event.data?.id, message: "the engine failed to load", fatal: true }),
  );
};

self.onmessageerror = () => send({ type: "error", message: "a message could not be read" });
