// The checkers engine's module worker: loads www/pkg-checkers and runs one search at a time.
// Messages in: {type: "search", id, request} and {type: "newgame"}. Out: {type: "ready"},
// {type: "progress", id, event}, {type: "result", id, result}, {type: "error", id?, message, fatal?}.
// A search blocks this worker until it ends; the page stops one early by terminating the worker (engine.js).

import { loadPackage } from "../engine/wasm-support.js";

/** Hash table size in megabytes, from the worker URL's `?hash=` (16 by default). */
const HASH_MB = Number(new URL(import.meta.url).searchParams.get("hash")) || 16;

/** @type {any} the Searcher, once the package has loaded */
let searcher = null;
/** Set after a Rust panic: the wasm instance may be inconsistent, so nothing more runs in it. */
let crashed = false;

const loaded = (async () => {
  const pkg = await loadPackage(new URL("../pkg-checkers/homeostat_checkers_web.js", import.meta.url).href);
  searcher = new pkg.Searcher(HASH_MB);
})();

loaded.then(
  () => self.postMessage({ type: "ready" }),
  (err) => self.postMessage({ type: "error", message: `could not load the checkers engine: ${err?.message ?? err}`, fatal: true }),
);

/**
 * Handles one message from the page.
 * @param {any} msg
 */
function handle(msg) {
  const id = msg?.id;
  if (crashed || !searcher) return self.postMessage({ type: "error", id, message: "the checkers engine is not available", fatal: true });
  try {
    if (msg?.type === "newgame") return searcher.newGame();
    if (msg?.type !== "search") return self.postMessage({ type: "error", id, message: `unknown message type ${JSON.stringify(msg?.type)}` });
    const result = searcher.search(msg.request, (event) => self.postMessage({ type: "progress", id, event }));
    self.postMessage({ type: "result", id, result });
  } catch (err) {
    // A WebAssembly trap is a Rust panic: the instance cannot be trusted any more.
    const trap = err instanceof WebAssembly.RuntimeError;
    if (trap) crashed = true;
    const text = err instanceof Error ? err.message : String(err);
    self.postMessage({ type: "error", id, message: trap ? `engine crashed: ${text}` : text, fatal: trap || undefined });
  }
}

self.onmessage = (event) => {
  // Messages wait for the package; the same settled promise keeps them in order.
  loaded.then(
    () => handle(event.data),
    () => self.postMessage({ type: "error", id: event.data?.id, message: "the checkers engine failed to load", fatal: true }),
  );
};
