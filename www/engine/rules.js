// Loads the rules' wasm package once for the page's main thread and hands out its `Game` class. It holds the rules
// only (pkg/homeostat_rules.js): the search and its net are in the engine worker's package, loaded on demand.

import { fetchBytes, loadPackage } from "./wasm-support.js";

/** @type {Promise<any> | null} */
let loading = null;

/**
 * The rules' wasm package (`Game`, `perft`, `levelElo`, `levelThinkMs`, `levelUsesNet`), initialised once; later
 * calls share the same promise.
 * @returns {Promise<typeof import("../pkg/homeostat_rules.js")>}
 */
export function loadRules() {
  loading ??= loadPackage(new URL("../pkg/homeostat_rules.js", import.meta.url).href);
  return loading;
}

/** @type {Promise<Uint8Array> | null} */
let book = null;

/**
 * Fetches the opening book and its names (pkg/openings.bin) and installs them in the rules' package, once: until then
 * `Game.openingName()` and `Game.bookMove()` answer nothing. Resolves with the file's bytes, which the page hands to
 * its engine worker (EngineClient's `book`) so that the file is downloaded once; rejects with a message saying what
 * went wrong.
 * @returns {Promise<Uint8Array>}
 */
export function loadBook() {
  book ??= (async () => {
    const pkg = await loadRules();
    const bytes = await fetchBytes(new URL("../pkg/openings.bin", import.meta.url)).catch((err) => {
      throw new Error(`pkg/openings.bin: ${err.message}`);
    });
    pkg.installBook(bytes);
    return bytes;
  })();
  return book;
}
