// Loads the wasm package once for the page's main thread and hands out its `Game` class.

import { assertWasmSupport } from "./wasm-support.js";

/** @type {Promise<any> | null} */
let loading = null;

/**
 * The wasm package (with `Game`, `perft`), initialised once; later calls share the same promise.
 * @returns {Promise<typeof import("../pkg/homeostat_web.js")>}
 */
export function loadRules() {
  loading ??= (async () => {
    assertWasmSupport();
    const pkg = await import(new URL("../pkg/homeostat_web.js", import.meta.url).href);
    await pkg.default();
    return pkg;
  })();
  return loading;
}
