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
 * @param {{workerUrl?: string | URL, book?: Promise<Uint8Array | null>}} [options] another worker script (a missing
 *   one, in failure tests); the page's copy of the opening book, handed to the worker as the player does
 */
export function nodeEngine({ workerUrl, book } = {}) {
  return new EngineClient({ createWorker: nodeWorker, ...(workerUrl ? { workerUrl } : {}), ...(book ? { book } : {}) });
}

/** @type {Record<string, Promise<any>>} */
const packages = {};

/**
 * A wasm package of www/pkg in this thread, loaded once, with the opening book installed as the page and the worker
 * install it once they have started.
 * @param {string} name `homeostat_rules` or `homeostat_web`
 */
function loadPackage(name) {
  packages[name] ??= (async () => {
    const pkg = await import(new URL(`pkg/${name}.js`, WWW).href);
    await pkg.default({ module_or_path: await readFile(new URL(`pkg/${name}_bg.wasm`, WWW)) });
    pkg.installBook(await readFile(new URL("pkg/openings.bin", WWW)));
    return pkg;
  })();
  return packages[name];
}

/** The rules' wasm package, as the page's main thread loads it (Game, levelElo, …). */
export const loadRules = () => loadPackage("homeostat_rules");

/** The engine worker's wasm package (Searcher, bench, perft). */
export const loadEngine = () => loadPackage("homeostat_web");
