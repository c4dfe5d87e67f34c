// The checkers engine's wasm package (www/pkg-checkers) under Node, as its worker uses it: a request is searched
// when it is good, and refused with the field and the reason when it is not, the engine staying usable.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, test } from "node:test";
import { WWW } from "./engine-node.js";

/** @type {any} */
let searcher;

before(async () => {
  const pkg = await import(new URL("pkg-checkers/homeostat_checkers_web.js", WWW).href);
  await pkg.default({ module_or_path: await readFile(new URL("pkg-checkers/homeostat_checkers_web_bg.wasm", WWW)) });
  searcher = new pkg.Searcher(1);
});

const search = (request) => searcher.search(request, () => {});

test("a good request is searched", () => {
  const result = search({ fen: "B:W21,22:B1,2", moves: ["1-5"], level: 3, nodes: 2000, seed: 7, depth: null, movetimeMs: undefined });
  assert.match(result.best, /^\d+[-x]\d+/);
});

test("a bad request names the field and what it must hold", () => {
  for (const [request, message] of [
    [null, "it must be an object, not null"],
    ["nodes: 1000", "it must be an object, not a string"],
    [[1, 2], "it must be an object, not an array"],
    [{ depht: 4 }, "unknown field `depht`, expected one of fen, moves, level, movetimeMs, depth, nodes, seed"],
    [{ fen: 3 }, "fen must be a string, not a number"],
    [{ moves: "11-15" }, "moves must be an array of strings, not a string"],
    [{ moves: ["11-15", 22] }, "moves[1] must be a string, not a number"],
    [{ level: "8" }, "level must be a number, not a string"],
    [{ level: 9 }, "level must be a whole number from 1 to 8, not 9"],
    [{ nodes: true }, "nodes must be a number, not a boolean"],
    [{ seed: {} }, "seed must be a number, not an object"],
    [{ depth: Infinity }, "depth must be a whole number from 0 to 9e15, not Infinity"],
    [{ movetimeMs: -5 }, "movetimeMs must be a whole number from 0 to 9e15, not -5"],
    [{ fen: "B:W33:B1" }, "bad FEN"],
    [{ moves: ["11-15", "11-15"] }, "move 2 (11-15)"],
  ]) {
    assert.throws(() => search(request), (err) => err.message.startsWith(`bad search request: ${message}`), JSON.stringify(request));
  }
  assert.match(search({ nodes: 1000 }).best, /^\d+[-x]\d+/, "the engine still plays");
});
