// The real engine for tests under Node: the page's EngineClient and worker script, with the worker in a
// worker_threads Worker, and the wasm package loaded from www/pkg.

import { readFile } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { EngineClient } from "../../www/engine/engine-client.js";

/** The site's folder. */
export const WWW = new URL("../../www/", import.meta.url);

/**
 * A worker_threads Worker dressed as a Web Worker (postMessage, onmessage, onerror, terminate).
 * @param {URL} url the worker script
 */
export function nodeWorker(url) {
  const worker = new Worker(new URL("./worker-entry.js", import.meta.url), { workerData: { script: url.href } });
  const adapter = {
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    postMessage: (message) => worker.postMessage(message),
    terminate: () => void worker.terminate(),
  };
  worker.on("message", (data) => adapter.onmessage?.({ data }));
  worker.on("error", (err) => adapter.onerror?.({ message: err.message, preventDefault() {} }));
  return adapter;
}

/**
 * An engine client whose worker runs in a Node thread.
 * @param {{workerUrl?: string | URL}} [options] another worker script (a missing one, in failure tests)
 */
export function nodeEngine({ workerUrl } = {}) {
  return new EngineClient({ createWorker: nodeWorker, ...(workerUrl ? { workerUrl } : {}) });
}

let rules = null;
/** The rules' wasm package, as the page's main thread loads it (Game, levelElo, …), loaded once. */
export async function loadRules() {
  rules ??= (async () => {
    const pkg = await import(new URL("pkg/homeostat_rules.js", WWW).href);
    await pkg.default({ module_or_path: await readFile(new URL("pkg/homeostat_rules_bg.wasm", WWW)) });
    // As the page does once its board is playable (engine/rules.js loadBook).
    pkg.installBook(await readFile(new URL("pkg/openings.bin", WWW)));
    return pkg;
  })();
  return rules;
}

let engine = null;
/** The engine worker's wasm package (Searcher, bench, perft) in this thread, with the book installed as the worker does. */
export async function loadEngine() {
  engine ??= (async () => {
    const pkg = await import(new URL("pkg/homeostat_web.js", WWW).href);
    await pkg.default({ module_or_path: await readFile(new URL("pkg/homeostat_web_bg.wasm", WWW)) });
    pkg.installBook(await readFile(new URL("pkg/openings.bin", WWW)));
    return pkg;
  })();
  return engine;
}
