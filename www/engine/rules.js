// Loads the wasm package once for the page's main thread and hands out its `Game` class.

/** @type {Promise<any> | null} */
let loading = null;

/**
 * The wasm package (with `Game`, `perft`), initialised once; later calls share the same promise.
 * @returns {Promise<typeof import("../pkg/homeostat_web.js")>}
 */
export function loadRules() {
  loading ??= import(new URL("../pkg/homeostat_web.js", import.meta.url).href).then(async (pkg) => {
    await pkg.default();
    return pkg;
  });
  return loading;
}
