// The neural net in the browser build: the worker fetches the net file beside the wasm package and hands it to the
// Searcher, levels 3 to 8 evaluate with it and levels 1 and 2 do not, bytes that are no net are refused with a
// reason, and a worker whose net is missing still plays and says why.

import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { loadEngine, nodeEngine, WWW } from "./engine-node.js";

const pkg = await loadEngine();
const NET = new Uint8Array(await readFile(new URL("pkg/homeostat.nnue", WWW)));
const FEN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/** The net file that `packed` packs: each 16-bit word's low byte, then its high byte, zigzag-decoded. */
function unpacked(packed) {
  const body = packed.subarray(12);
  const half = body.length / 2;
  const file = new Uint8Array(body.length);
  const view = new DataView(file.buffer);
  for (let i = 0; i < half; i++) {
    const z = body[i] | (body[half + i] << 8);
    view.setInt16(2 * i, (z >>> 1) ^ -(z & 1), true);
  }
  return file;
}

/** A level's search of FEN to depth 6 (fixed seed), by a Searcher with the net or without. */
function searched(level, withNet) {
  const searcher = new pkg.Searcher(8);
  if (withNet) searcher.setNet(NET);
  const result = searcher.search({ fen: FEN, depth: 6, level, seed: 3 }, () => {});
  searcher.free();
  return { nodes: result.nodes, score: result.score };
}

/** The client's state once its worker said it is ready. */
async function started(client) {
  const ready = new Promise((resolve) => client.addEventListener("ready", resolve, { once: true }));
  client.preload();
  await ready;
  return { net: client.net, netError: client.netError };
}

describe("the neural net in the browser build", () => {
  test("bytes that are no net are refused with a reason, and the evaluation stays as it was", () => {
    const searcher = new pkg.Searcher(8);
    assert.throws(() => searcher.setNet(new Uint8Array([1, 2, 3])), /not a Homeostat net/);
    const damaged = NET.slice();
    damaged[1000] ^= 0xff;
    assert.throws(() => searcher.setNet(damaged), /checksum/);
    assert.throws(() => searcher.setNet(NET.slice(0, NET.length - 2)), /holds \d+ bytes after its header, expected/);
    assert.equal(searcher.hasNet, false);
    searcher.setNet(NET);
    assert.equal(searcher.hasNet, true);
    searcher.free();
  });

  test("the net is served packed, and a net file as the trainer writes it loads the same", () => {
    // Packed (crates/engine/src/nnue/packed.rs), gzip takes a quarter more off the download.
    assert.equal(new TextDecoder().decode(NET.slice(0, 8)), "HSTNNUEZ");
    const length = new DataView(NET.buffer, NET.byteOffset).getUint32(8, true);
    assert.equal(NET.length, 12 + length);
    assert.equal(pkg.bench(4, NET).nodes, pkg.bench(4, unpacked(NET)).nodes);
  });

  test("levels 3 to 8 evaluate with the net; levels 1 and 2 search the same tree with it or without", () => {
    for (const level of [3, 5, 8]) assert.notDeepEqual(searched(level, true), searched(level, false), `level ${level}`);
    for (const level of [1, 2]) assert.deepEqual(searched(level, true), searched(level, false), `level ${level}`);
  });

  test("with the net, the wasm build searches the native build's tree", () => {
    // The native count is asserted in crates/engine/src/bench.rs (`homeostat bench 6 nnue`): the two builds evaluate
    // alike, though the wasm output layer has its own simd128 code. A search or evaluation change moves both.
    assert.equal(pkg.bench(6, NET).nodes, 92_309);
  });

  test("the bench with the net searches another tree", () => {
    const plain = pkg.bench(4);
    const net = pkg.bench(4, NET);
    assert.notEqual(net.nodes, plain.nodes);
    assert.throws(() => pkg.bench(4, new Uint8Array(10)), /not a Homeostat net/);
  });

  test("the worker loads the net beside the package", { timeout: 30_000 }, async () => {
    const client = nodeEngine();
    try {
      assert.deepEqual(await started(client), { net: true, netError: null });
    } finally {
      client.destroy();
    }
  });

  test("without the net file the worker still plays, and says why it is weaker", { timeout: 30_000 }, async () => {
    // A copy of the engine and its package without the net.
    const site = await mkdtemp(path.join(os.tmpdir(), "homeostat-no-net-"));
    const client = nodeEngine({ workerUrl: new URL(`file://${site}/engine/worker.js`) });
    const errors = [];
    client.addEventListener("error", (event) => errors.push(event.detail.message));
    try {
      const www = fileURLToPath(WWW);
      await cp(path.join(www, "engine"), path.join(site, "engine"), { recursive: true });
      await cp(path.join(www, "pkg"), path.join(site, "pkg"), { recursive: true, filter: (file) => !file.endsWith(".nnue") });
      const state = await started(client);
      assert.equal(state.net, false);
      assert.match(state.netError, /^the engine's neural net did not load \(.+\): the engine plays with the hand-crafted evaluation/);
      assert.deepEqual(errors, [state.netError]);
      const result = await client.search({ fen: FEN, depth: 4, level: 8 });
      assert.match(result.best, /^[a-h][1-8][a-h][1-8]/);
    } finally {
      client.destroy();
      await rm(site, { recursive: true, force: true });
    }
  });
});
