// The material difference in the player bars (www/ui/material.js): what each side is ahead by, net of trades, in
// pieces and points, and its words for screen readers.

import assert from "node:assert/strict";
import { test } from "node:test";
import { piecesFromPlacement } from "../../www/board/board-state.js";
import { describeMaterial, materialDifference } from "../../www/ui/material.js";

const of = (fen) => materialDifference(piecesFromPlacement(fen));

test("level material shows nothing, a trade shows nothing", () => {
  const none = { white: { taken: [], points: 0 }, black: { taken: [], points: 0 } };
  assert.deepEqual(of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), none);
  // Knights traded.
  assert.deepEqual(of("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1"), none);
});

test("the side ahead shows the opponent's pieces it has more of, most valuable first, and its points", () => {
  // White took a knight and two pawns, Black a bishop: each shows what it has more of; White leads by 2.
  const d = of("r1bqkbnr/ppp2ppp/8/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1");
  assert.deepEqual(d.white, { taken: ["n", "p", "p"], points: 2 });
  assert.deepEqual(d.black, { taken: ["B"], points: 0 });
  // A promoted queen counts as a queen.
  const q = of("4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1");
  assert.deepEqual(q.white, { taken: ["q", "q"], points: 18 });
  assert.deepEqual(q.black, { taken: [], points: 0 });
  // Black ahead.
  const b = of("4k3/pp6/8/8/8/8/8/4K3 b - - 0 1");
  assert.deepEqual(b.black, { taken: ["P", "P"], points: 2 });
});

test("the lead in words", () => {
  assert.equal(describeMaterial({ taken: [], points: 0 }), "");
  assert.equal(describeMaterial({ taken: ["n"], points: 3 }), "ahead by a knight, +3");
  assert.equal(describeMaterial({ taken: ["r", "n", "p", "p"], points: 10 }), "ahead by a rook, a knight and 2 pawns, +10");
  assert.equal(describeMaterial({ taken: ["B"], points: 0 }), "ahead by a bishop");
});
