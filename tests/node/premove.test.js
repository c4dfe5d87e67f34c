// Premove targets (www/ui/premove.js): the squares a piece may be premoved to while the engine thinks must hold every
// move the rules allow it after whatever the engine replies, since a premove the board refuses to take is one the
// person cannot make; checked against the rules module over random games, beside a few positions by hand.

import assert from "node:assert/strict";
import { test } from "node:test";
import { loadRules } from "./engine-node.js";
import { piecesFromPlacement } from "../../www/board/board-state.js";
import { premoveMove, premoveTargets } from "../../www/ui/premove.js";

const rules = await loadRules();

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const targets = (fen, square) => premoveTargets(piecesFromPlacement(fen), square, fen.split(" ")[2]).map((t) => t.to).sort();

test("each piece's premove squares are its moves on an open board", () => {
  assert.deepEqual(targets(START, "g1"), ["e2", "f3", "h3"]);
  assert.deepEqual(targets(START, "e2"), ["d3", "e3", "e4", "f3"]);
  assert.deepEqual(targets(START, "a7"), ["a5", "a6", "b6"]);
  // Blocked now, open after a reply: the whole diagonal.
  assert.deepEqual(targets(START, "c1"), ["a3", "b2", "d2", "e3", "f4", "g5", "h6"]);
  assert.deepEqual(targets(START, "a1").length, 14);
  assert.deepEqual(targets(START, "d1").length, 21);
  assert.deepEqual(targets("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e3"), []);
});

test("castling is a premove target only while its right stands and the rook is at home", () => {
  const open = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  assert.deepEqual(targets(open, "e1"), ["c1", "d1", "d2", "e2", "f1", "f2", "g1"]);
  assert.deepEqual(targets(open, "e8"), ["c8", "d7", "d8", "e7", "f7", "f8", "g8"]);
  assert.deepEqual(targets(open.replace("KQkq", "Qk"), "e1"), ["c1", "d1", "d2", "e2", "f1", "f2"]);
  assert.deepEqual(targets("r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", "e1"), ["c1", "d1", "d2", "e2", "f1", "f2"]);
});

test("a premove to the last rank promotes to a queen", () => {
  const legal = ["q", "r", "b", "n"].map((p) => ({ to: "a8", uci: `a7a8${p}`, promotion: p }));
  assert.equal(premoveMove(legal, "a8").uci, "a7a8q");
  assert.equal(premoveMove([{ to: "e4", uci: "e2e4" }], "e4").uci, "e2e4");
  assert.equal(premoveMove([{ to: "e4", uci: "e2e4" }], "e3"), null);
});

test("over random games, every move the rules allow after the reply was a premove target before it", () => {
  let x = 2024;
  const pick = (n) => {
    x = (x * 1103515245 + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  let checked = 0;
  for (let g = 0; g < 60; g++) {
    const game = new rules.Game();
    for (let ply = 0; ply < 120 && !game.outcome(); ply++) {
      const before = game.fen();
      const moves = game.legalMoves();
      game.play(moves[pick(moves.length)].uci);
      if (game.outcome()) break;
      // `before` is the position the engine was to move in; the person's pieces that did not move or get taken
      // keep their squares, and each legal move of one of them now must have been offered for it then.
      const then = piecesFromPlacement(before);
      const now = piecesFromPlacement(game.fen());
      const castling = before.split(" ")[2];
      for (const m of game.legalMoves()) {
        const from = "abcdefgh".indexOf(m.from[0]) + 8 * (Number(m.from[1]) - 1);
        if (then[from] !== now[from]) continue;
        const offered = premoveTargets(then, m.from, castling).map((t) => t.to);
        assert.ok(offered.includes(m.to), `${m.uci} after ${before} was not a premove target`);
        checked++;
      }
    }
    game.free();
  }
  assert.ok(checked > 50_000, `only ${checked} moves checked`);
});
