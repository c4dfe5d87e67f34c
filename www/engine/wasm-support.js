// Loading the wasm packages: a feature check (they are built with WebAssembly SIMD, simd128, which Chromium 91+,
// Firefox 89+ and Safari 16.4+ run; older browsers get a clear message instead of a compile error), the download and
// compile of a package's module, the fetch of the files the packages take beside them (the net, the opening book),
// and a word for a package slow to arrive.

// The smallest module using SIMD: one function returning `v128.const 0`.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, ...new Array(16).fill(0), 0x0b, // code: v128.const 0, end
]);

/**
 * The bytes of a file a wasm package takes beside it; throws `HTTP <status>` when the server refuses it.
 * @param {URL} url
 */
export async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Throws an Error saying what is missing when this browser cannot run the wasm package. */
export function assertWasmSupport() {
  if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
  if (!WebAssembly.validate(SIMD_PROBE)) {
    throw new Error("this browser lacks WebAssembly SIMD (Chrome 91, Firefox 89 and Safari 16.4 have it)");
  }
}

/** How long a package may take to load before the player says the network is slow. */
const SLOW_LOAD_MS = 8000;

/**
 * Settles as `loading` does; calls `onSlow` if it has not settled within {@link SLOW_LOAD_MS}, so that a player left
 * waiting on the network can say why.
 * @template T
 * @param {Promise<T>} loading
 * @param {() => void} onSlow
 * @returns {Promise<T>}
 */
export function sayIfSlow(loading, onSlow) {
  const timer = setTimeout(onSlow, SLOW_LOAD_MS);
  return loading.finally(() => clearTimeout(timer));
}

/** How long the asynchronous compile of a downloaded module may take before the module is compiled at once. */
const COMPILE_STALL_MS = 3000;

/**
 * Imports the wasm-bindgen package `jsUrl` and starts it with its module (`<name>_bg.wasm` beside it), which is
 * downloaded in full and then compiled. Why not the package's own streaming start: in Firefox 140 under load, from
 * some moment on no asynchronous compile in a page settles again, not even an empty module's (seen in the browser
 * tests; a synchronous compile still works, in milliseconds), and the player waited for ever. So when the compile
 * has not settled within {@link COMPILE_STALL_MS} of the bytes' arrival, the module is compiled synchronously; a
 * browser that refuses that keeps waiting for the asynchronous compile. Rejects with a message naming the file.
 * @param {string} jsUrl
 * @returns {Promise<any>} the package, started
 */
export async function loadPackage(jsUrl) {
  assertWasmSupport();
  const wasmUrl = new URL(jsUrl.replace(/\.js$/, "_bg.wasm"));
  const file = wasmUrl.pathname.split("/").slice(-2).join("/");
  const [pkg, module] = await Promise.all([
    import(jsUrl),
    fetchBytes(wasmUrl)
      .then(compile)
      .catch((err) => {
        throw new Error(`${file}: ${err.message}`);
      }),
  ]);
  try {
    pkg.initSync({ module });
  } catch (err) {
    // A browser that limits synchronous work on the main thread says so with a RangeError: start it asynchronously.
    if (!(err instanceof RangeError)) throw err;
    await pkg.default({ module_or_path: module });
  }
  return pkg;
}

/**
 * Compiles `bytes`, asynchronously, or synchronously once the asynchronous compile has stalled (see {@link loadPackage}).
 * @param {Uint8Array} bytes
 * @returns {Promise<WebAssembly.Module>}
 */
async function compile(bytes) {
  const compiling = WebAssembly.compile(bytes);
  let timer;
  const stalled = new Promise((resolve) => (timer = setTimeout(resolve, COMPILE_STALL_MS, null)));
  const module = await Promise.race([compiling, stalled]).finally(() => clearTimeout(timer));
  if (module) return module;
  // Left to itself from here: a late failure of it is no page error.
  compiling.catch(() => {});
  try {
    return new WebAssembly.Module(bytes);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return compiling;
  }
}
