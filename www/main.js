// Entry point of the page: loads the wasm rules module and runs a perft self-check.

import init, { perft } from "./pkg/homeostat_web.js";

/** Depth of the self-check; the start position has 8902 leaves at depth 3. */
const DEPTH = 3;

const result = document.getElementById("perft-result");
const timing = document.getElementById("perft-timing");

/**
 * Shows a message in the result box.
 * @param {"ok" | "error"} state
 * @param {string} text
 */
function show(state, text) {
  result.dataset.state = state;
  result.textContent = text;
}

async function main() {
  const loadStart = performance.now();
  await init();
  const loadMs = performance.now() - loadStart;

  const runStart = performance.now();
  const nodes = perft(undefined, DEPTH);
  const runMs = performance.now() - runStart;

  show("ok", `perft(${DEPTH}) = ${nodes}`);
  timing.textContent = `Computed in ${runMs.toFixed(1)} ms (WebAssembly loaded in ${loadMs.toFixed(0)} ms).`;
}

main().catch((err) => {
  show("error", `Error: ${err instanceof Error ? err.message : String(err)}`);
  console.error(err);
});
