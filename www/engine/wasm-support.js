// Feature check for the wasm package: it is built with WebAssembly SIMD (simd128), which Chromium 91+,
// Firefox 89+ and Safari 16.4+ run. Older browsers get a clear message instead of a compile error. Also the fetch of
// the files the packages take beside them (the net, the opening book), and a word for a package slow to arrive.

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
