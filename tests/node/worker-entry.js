// Runs the page's engine worker script (www/engine/worker.js) in a Node worker thread: it gives the script the
// parts of a Web Worker's global it uses (`self`, `postMessage`, `onmessage`) and lets `fetch` read file: URLs,
// which is how the wasm package loads its .wasm file. The worker script itself is unchanged.

import { readFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";

globalThis.self = globalThis;
globalThis.postMessage = (message) => parentPort.postMessage(message);

// Messages that arrive before the script has set `onmessage` wait for it.
const early = [];
parentPort.on("message", (data) => (globalThis.onmessage ? globalThis.onmessage({ data }) : early.push(data)));

const networkFetch = globalThis.fetch;
globalThis.fetch = async (resource, init) => {
  const url = new URL(resource instanceof Request ? resource.url : String(resource));
  if (url.protocol !== "file:") return networkFetch(resource, init);
  return new Response(await readFile(url), { headers: { "content-type": "application/wasm" } });
};

await import(workerData.script);
for (const data of early.splice(0)) globalThis.onmessage?.({ data });
