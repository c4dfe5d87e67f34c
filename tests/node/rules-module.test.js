// The page's rules module (pkg/homeostat_rules.js): the records it hands out have exactly their documented fields (it
// builds them by hand, crates/web/src/js.rs), and under load, with its own allocator (crates/web/src/allocator.rs),
// long runs of games, PGN round trips and large texts keep every value intact, and freed memory is used again rather
// than the module's memory growing with each game.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadRules } from "./engine-node.js";

const rules = await loadRules();
// The package's exports, memory included (initialising again returns the same instance).
const wasm = await rules.default();

/** A small deterministic generator (xorshift32), so that every run plays the same games. */
function generator(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

/** Plays up to `plies` random legal moves; checks the PGN round trip; frees what it made. */
function playAndRoundTrip(pick, plies) {
  const game = new rules.Game();
  for (let i = 0; i < plies && !game.outcome(); i++) {
    const moves = game.legalMoves();
    game.play(moves[pick(moves.length)].uci);
  }
  const pgn = game.pgn({ Event: "allocator test" });
  const again = rules.Game.load(pgn);
  assert.equal(again.fen(), game.fen());
  assert.deepEqual(again.historySan(), game.historySan());
  const ply = game.ply();
  again.free();
  game.free();
  return ply;
}

describe("the rules module's records", () => {
  test("moves, played moves, outcomes, last moves and openings have exactly their fields", () => {
    const game = new rules.Game("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    const promotion = game.legalMoves().find((m) => m.uci === "a7a8q");
    assert.deepEqual(promotion, { uci: "a7a8q", san: "a8=Q+", from: "a7", to: "a8", kind: "promotion", promotion: "q", capture: false });
    const quiet = game.legalMoves().find((m) => m.uci === "a1b1");
    assert.deepEqual(quiet, { uci: "a1b1", san: "Kb1", from: "a1", to: "b1", kind: "quiet", capture: false });
    assert.equal(game.lastMove(), null);
    const played = game.play("a8=Q+");
    assert.deepEqual(played, { uci: "a7a8q", san: "a8=Q+", from: "a7", to: "a8", kind: "promotion", promotion: "q", capture: false, fen: game.fen(), check: true, mate: false, outcome: null });
    assert.deepEqual(game.lastMove(), { from: "a7", to: "a8" });
    assert.equal(game.outcome(), null);
    const mate = new rules.Game();
    for (const san of ["f3", "e5", "g4"]) mate.play(san);
    const last = mate.play("Qh4#");
    assert.deepEqual(Object.keys(last.outcome), ["result", "reason", "winner", "text"]);
    assert.deepEqual({ ...mate.outcome(), text: "" }, { result: "0-1", reason: "checkmate", winner: "b", text: "" });
    const draw = new rules.Game();
    assert.equal(draw.agreeDraw().winner, null);
    const opening = new rules.Game();
    for (const san of ["e4", "c5"]) opening.play(san);
    assert.deepEqual(Object.keys(opening.openingName()), ["eco", "name"]);
    assert.equal(opening.openingName().eco, "B20");
    for (const g of [game, mate, draw, opening]) g.free();
  });

  test("annotations have exactly their fields, an evaluation either cp or mate", () => {
    const game = rules.Game.load('1. e4 {[%eval 0.31] [%cal Ge2e4] [%csl Rd4] good} (1. d4 d5) e5 {[%eval #-3]} $2 *');
    const [first, second] = game.annotations();
    assert.deepEqual(first, { ply: 1, nags: [], comment: "good", eval: { cp: 31 }, arrows: ["Ge2e4"], circles: ["Rd4"], variation: ["d2d4", "d7d5"], variationSan: ["d4", "d5"] });
    assert.deepEqual(second.eval, { mate: -3 });
    assert.deepEqual(second.nags, [2]);
    game.free();
  });

  test("a game read from a PGN counts the side lines it did not keep", () => {
    const game = rules.Game.load("1. e4 {good} (1. d4 {solid} d5 (1... Nf6)) (1. c4) e5 *");
    assert.equal(game.unkeptLines(), 3);
    const again = rules.Game.replay(undefined, game.historyUci(), undefined, game.sourcePgn());
    assert.equal(again.unkeptLines(), 0, "the saved copy holds what was kept");
    const fen = rules.Game.load("8/8/4k3/8/8/4K3/8/R7 b - - 3 40");
    assert.equal(fen.unkeptLines(), 0);
    for (const g of [game, again, fen]) g.free();
  });

  test("PGN tags: numbers are written as JavaScript writes them; other values are refused", () => {
    const game = new rules.Game();
    const pgn = game.pgn({ Round: 3, WhiteElo: 2500.5, BlackElo: -0, Event: "x" });
    assert.match(pgn, /\[Round "3"\]/);
    assert.match(pgn, /\[WhiteElo "2500\.5"\]/);
    assert.match(pgn, /\[BlackElo "0"\]/);
    assert.throws(() => game.pgn({ Round: true }), /PGN tag Round must be a string/);
    assert.throws(() => game.pgn({ Round: {} }), /PGN tag Round must be a string/);
    game.free();
  });
});

describe("the rules module's position keys", () => {
  // The module is built with compact keys (homeostat-chess's compact-keys feature), not Polyglot's: repetitions and
  // the opening book's index must still find their positions.
  test("a threefold repetition is claimed, and a transposition is named by the book", () => {
    const game = new rules.Game();
    let last;
    for (const san of ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]) last = game.play(san);
    assert.equal(last.outcome?.reason, "threefold repetition");
    const direct = new rules.Game();
    const transposed = new rules.Game();
    for (const san of ["e4", "c5", "Nf3", "d6"]) direct.play(san);
    for (const san of ["Nf3", "d6", "e4", "c5"]) transposed.play(san);
    assert.equal(direct.openingName()?.eco, "B50");
    assert.deepEqual(transposed.openingName(), direct.openingName());
    for (const g of [game, direct, transposed]) g.free();
  });
});

describe("the rules module's memory", () => {
  test("games and PGN round trips stay exact, and the memory stops growing once warm", () => {
    const pick = generator(2026);
    for (let i = 0; i < 60; i++) playAndRoundTrip(pick, 120);
    const warm = wasm.memory.buffer.byteLength;
    let plies = 0;
    for (let i = 0; i < 600; i++) plies += playAndRoundTrip(pick, 120);
    assert.ok(plies > 30_000, `${plies} plies played`);
    const grown = wasm.memory.buffer.byteLength - warm;
    // Ten times the games in the same room: freed blocks are reused (a page is 64 KiB).
    assert.ok(grown <= 4 * 65_536, `the memory grew by ${grown} bytes over 600 games`);
  });

  test("large texts: a long comment is read whole, and a huge bad input is refused", () => {
    const comment = "a long note ".repeat(40_000).trim();
    const game = rules.Game.load(`1. e4 {${comment}} e5 *`);
    assert.equal(game.annotations()[0].comment, comment, "the comment is kept whole");
    assert.equal(game.historySan().join(" "), "e4 e5");
    game.free();
    assert.throws(() => rules.Game.load(`1. e4 e5 2. ${"Zz9 ".repeat(200_000)}`), /Zz9/);
    // Values made after the large blocks are freed are still right.
    assert.equal(playAndRoundTrip(generator(7), 40) > 0, true);
  });
});
