// The worker protocol's field lists (www/engine/protocol.js) against the Rust structs behind the wasm Searcher:
// real searches must return exactly the declared result and event fields, every declared request field must be
// accepted, and the Rust side's own list of request fields (named in its refusal) must equal the JS list.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  checkFields,
  checkSearchRequest,
  checkToWorker,
  ITERATION_EVENT_FIELDS,
  PURPOSES,
  ROOT_EVENT_FIELDS,
  SEARCH_REQUEST_FIELDS,
  SEARCH_RESULT_FIELDS,
} from "../../www/engine/protocol.js";
import { readFile } from "node:fs/promises";
import { loadEngine, nodeEngine, WWW } from "./engine-node.js";

const pkg = await loadEngine();
const searcher = new pkg.Searcher(8);

/** Runs a search in-process; returns its events and result. */
function search(request) {
  const events = [];
  const result = searcher.search(request, (event) => events.push(event));
  return { events, result };
}

/** A valid value of each declared request field, for sending it alone. */
const SAMPLES = {
  fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
  moves: ["e2e4"],
  level: 3,
  movetimeMs: 50,
  depth: 2,
  nodes: 5000,
  thinkMinMs: 20,
  thinkMaxMs: 60,
  wtimeMs: 60_000,
  btimeMs: 60_000,
  wincMs: 1000,
  bincMs: 1000,
  useBook: false,
  seed: 7,
  purpose: "hint",
  multipv: 2,
};

describe("the worker protocol matches the Rust structs", () => {
  test("search results have exactly the declared fields, searched and from the book", () => {
    const searched = search({ depth: 3, fen: SAMPLES.fen }).result;
    assert.equal(checkFields(searched, SEARCH_RESULT_FIELDS), null);
    const book = search({ depth: 3, useBook: true, seed: 1 }).result;
    assert.equal(book.book, true, "the start position is in the book");
    assert.equal(checkFields(book, SEARCH_RESULT_FIELDS), null);
  });

  test("root and iteration events have exactly the declared fields", () => {
    const { events } = search({ depth: 4, level: 3, fen: SAMPLES.fen });
    const roots = events.filter((e) => e.type === "root");
    const iterations = events.filter((e) => e.type === "iteration");
    assert.ok(roots.length > 0 && iterations.length > 0, "both kinds of event arrive");
    for (const event of roots) assert.equal(checkFields(event, ROOT_EVENT_FIELDS), null);
    for (const event of iterations) assert.equal(checkFields(event, ITERATION_EVENT_FIELDS), null);
    assert.deepEqual([...new Set(events.map((e) => e.type))].sort(), ["iteration", "root"]);
  });

  test("a multipv search reports each line as an iteration event, best first", () => {
    const { events, result } = search({ depth: 5, multipv: 3 });
    const last = events.filter((e) => e.type === "iteration" && e.depth === 5 && e.bound === "exact").slice(-3);
    assert.deepEqual(last.map((e) => e.multipv), [1, 2, 3]);
    assert.equal(new Set(last.map((e) => e.pvUci[0])).size, 3, "three different first moves");
    assert.equal(last[0].pvUci[0], result.best);
    for (const event of last) assert.equal(checkFields(event, ITERATION_EVENT_FIELDS), null);
    assert.throws(() => search({ depth: 1, multipv: 6 }), /multipv must be 1 to 5/);
  });

  test("every declared request field is accepted by the Rust side", () => {
    for (const [field, value] of Object.entries(SAMPLES)) {
      const request = { depth: 1, [field]: value };
      if (field === "thinkMinMs" || field === "thinkMaxMs") Object.assign(request, { thinkMinMs: 20, thinkMaxMs: 60 });
      if (field === "wtimeMs" || field === "btimeMs") Object.assign(request, { wtimeMs: 60_000, btimeMs: 60_000 });
      assert.equal(checkSearchRequest(request), null, `the JS check refuses ${field}`);
      assert.doesNotThrow(() => search(request), `the engine refuses ${field}`);
    }
    assert.deepEqual(Object.keys(SAMPLES).sort(), Object.keys(SEARCH_REQUEST_FIELDS).sort(), "a sample for every field");
  });

  test("the Rust side's list of request fields is the JS list", () => {
    let message = "";
    try {
      search({ depth: 1, colour: "w" });
    } catch (err) {
      message = err.message;
    }
    const match = /unknown field `colour`, expected one of (.*)$/.exec(message);
    assert.ok(match, `the refusal names the fields: ${message}`);
    assert.deepEqual(match[1].split(", ").sort(), Object.keys(SEARCH_REQUEST_FIELDS).sort());
  });

  test("every purpose is accepted and another is refused by both sides", () => {
    for (const purpose of PURPOSES) assert.doesNotThrow(() => search({ depth: 1, purpose }));
    assert.throws(() => search({ depth: 1, purpose: "ponder" }), /purpose/);
    assert.match(checkSearchRequest({ purpose: "ponder" }), /purpose must be one of play, hint, analyse/);
  });

  test("a level-8 request with no limit still plays (it thinks for the level's time)", () => {
    const { result } = search({ fen: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", level: 8 });
    assert.equal(result.best, "a1a8");
    assert.ok(pkg.levelThinkMs(8) > 0 && pkg.levelThinkMs(1) > 0, "levelThinkMs is exported");
  });

  test("draw questions carry the engine's colour; without it both sides refuse", () => {
    const fen = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1";
    assert.equal(searcher.acceptsDraw(fen, [], "b"), true, "Black, a queen down, takes a draw");
    assert.equal(searcher.acceptsDraw(fen, [], "w"), false, "White, a queen up, plays on");
    assert.throws(() => searcher.acceptsDraw(fen, []));
    assert.match(checkToWorker({ type: "draw", id: 1, fen, moves: [] }), /engine's color/);
    assert.equal(checkToWorker({ type: "draw", id: 1, fen, moves: [], color: "w" }), null);
  });

  test("the client's checks name what is wrong", () => {
    assert.match(checkToWorker({ type: "search", id: 1, depth: "3" }), /depth must be a number/);
    assert.match(checkToWorker({ type: "search", id: 1, colour: "w" }), /unknown field `colour`/);
    assert.match(checkToWorker({ type: "jump" }), /unknown message type/);
    assert.match(checkToWorker({ type: "book", bytes: [1, 2] }), /Uint8Array/);
    assert.equal(checkToWorker({ type: "book", bytes: null }), null);
  });
});

describe("the page hands its opening book to the worker", () => {
  const start = { useBook: true, seed: 1, depth: 2 };

  test("a worker given the page's copy plays from it, even when it comes after the first request", async () => {
    const bytes = await readFile(new URL("pkg/openings.bin", WWW));
    const book = new Promise((resolve) => setTimeout(() => resolve(new Uint8Array(bytes)), 300));
    const engine = nodeEngine({ book });
    try {
      const result = await engine.search(start);
      assert.equal(result.book, true, "the start position is in the handed-over book");
      // A restarted worker gets the same copy.
      engine.search({ depth: 30 }).catch(() => {});
      await engine.moveNow();
      assert.equal((await engine.search(start)).book, true);
    } finally {
      engine.destroy();
    }
  });

  test("a page without the book: the worker searches instead of downloading the file itself", async () => {
    const engine = nodeEngine({ book: Promise.reject(new Error("pkg/openings.bin: HTTP 404")) });
    try {
      const result = await engine.search(start);
      assert.equal(result.book, false);
      assert.ok(result.best && result.depth >= 1, "it searched");
    } finally {
      engine.destroy();
    }
  });
});
