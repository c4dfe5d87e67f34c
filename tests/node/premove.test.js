// Premove targets (www/ui/premove.js): the squares a piece may be premoved to while the engine thinks must hold every
// move the rules allow it after whatever the engine replies, since a premove the board refuses to take is one the
// person cannot make; checked against the rules module over random games, beside a few positions by hand.

import assert from "node:assert/strict";
import { test } from "node:test";
import { loadRules } from "./engine-node.js";
import { piecesFromPlacement } from "../../www/board/board-state.js";
import { premoveFromText, premoveMove, premoveTargets } from "../../www/ui/premove.js";

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

/**
 * Walks `games` random games from `seed` and calls `visit` for each legal move of the side to move whose piece stood
 * on its square before the last move too: `then` the position the engine was to move in (64 FEN letters), its
 * castling field, and the side the person plays. Those moves must all have been premovable before the reply.
 */
function eachMoveAfterReply(seed, games, visit) {
  let x = seed;
  const pick = (n) => {
    x = (x * 1103515245 + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  for (let g = 0; g < games; g++) {
    const game = new rules.Game();
    for (let ply = 0; ply < 120 && !game.outcome(); ply++) {
      const before = game.fen();
      const moves = game.legalMoves();
      game.play(moves[pick(moves.length)].uci);
      if (game.outcome()) break;
      const then = piecesFromPlacement(before);
      const now = piecesFromPlacement(game.fen());
      const castling = before.split(" ")[2];
      for (const m of game.legalMoves()) {
        const from = "abcdefgh".indexOf(m.from[0]) + 8 * (Number(m.from[1]) - 1);
        if (then[from] === now[from]) visit(m, then, castling, game.turn(), before);
      }
    }
    game.free();
  }
}

test("over random games, every move the rules allow after the reply was a premove target before it", () => {
  let checked = 0;
  eachMoveAfterReply(2024, 60, (m, then, castling, _side, before) => {
    const offered = premoveTargets(then, m.from, castling).map((t) => t.to);
    assert.ok(offered.includes(m.to), `${m.uci} after ${before} was not a premove target`);
    checked++;
  });
  assert.ok(checked > 50_000, `only ${checked} moves checked`);
});

const read = (fen, text, side = fen.split(" ")[1]) => premoveFromText(piecesFromPlacement(fen), text, side, fen.split(" ")[2]);

test("a typed premove names one of the person's pieces and a square it could reach", () => {
  // White thinks about its reply to 1.e4 from Black's side of the board: the person plays White here.
  assert.deepEqual(read(START, "Nf3", "w"), { from: "g1", to: "f3" });
  assert.deepEqual(read(START, "e4"), { from: "e2", to: "e4" });
  assert.deepEqual(read(START, "Nd2"), { from: "b1", to: "d2" });
  // Blocked now, open after a reply.
  assert.deepEqual(read(START, "Bc4"), { from: "f1", to: "c4" });
  assert.deepEqual(read(START, "Qh5+!"), { from: "d1", to: "h5" });
  assert.deepEqual(read(START, "Ng1-f3"), { from: "g1", to: "f3" });
  assert.deepEqual(read(START, "nf3"), { from: "g1", to: "f3" });
  assert.deepEqual(read(START, "g1f3"), { from: "g1", to: "f3" });
  assert.deepEqual(read(START, "Nf6", "b"), { from: "g8", to: "f6" });
  assert.deepEqual(read(START, "e5", "b"), { from: "e7", to: "e5" });
  // Castling while its right stands, in each notation.
  const open = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  assert.deepEqual(read(open, "O-O"), { from: "e1", to: "g1" });
  assert.deepEqual(read(open, "0-0-0"), { from: "e1", to: "c1" });
  assert.deepEqual(read(open, "o-o", "b"), { from: "e8", to: "g8" });
  assert.match(read(open.replace("KQkq", "kq"), "O-O").error, /^Castling short is no longer possible/);
  // A capture mark is not checked: the piece to take may be about to arrive.
  assert.deepEqual(read("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "exd5"), { from: "e4", to: "d5" });
  assert.deepEqual(read("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "ed5"), { from: "e4", to: "d5" });
  assert.deepEqual(read("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "Nxd5").error, "None of your knights could go to d5.");
});

test("a typed premove promotes to the piece it names, and says what is wrong when it cannot be one", () => {
  const pawn = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
  assert.deepEqual(read(pawn, "a8=N"), { from: "a7", to: "a8", promotion: "n" });
  assert.deepEqual(read(pawn, "a8q"), { from: "a7", to: "a8", promotion: "q" });
  assert.deepEqual(read(pawn, "a8(R)"), { from: "a7", to: "a8", promotion: "r" });
  assert.deepEqual(read(pawn, "a7a8b"), { from: "a7", to: "a8", promotion: "b" });
  assert.deepEqual(read(pawn, "a8"), { from: "a7", to: "a8" }, "no piece named: a queen when played");
  assert.equal(read(pawn, "Ke2=Q").error, "Only a pawn reaching the last rank can promote.");
  assert.equal(read(START, "Rd1").error, "Your rooks on a1 and h1 could each go to d1: say which, as Rad1.");
  assert.deepEqual(read(START, "Rad1"), { from: "a1", to: "d1" });
  // Rooks on one file are told apart by their rank.
  assert.equal(read("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "Ra3").error, "Your rooks on a1 and a5 could each go to a3: say which, as R1a3.");
  assert.deepEqual(read("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "R5a3"), { from: "a5", to: "a3" });
  assert.equal(read(START, "e2e5").error, "The piece on e2 cannot reach e5.");
  assert.equal(read(START, "e7e5", "w").error, "You have no piece on e7.");
  assert.equal(read(START, "Nc6", "w").error, "None of your knights could go to c6.");
  assert.equal(read(START, "Ke3", "w").error, "Your king could not go to e3.");
  assert.match(read(START, "hello").error, /^Not a move: hello\. Type one such as e4, Nf3 or O-O\.$/);
  assert.match(read(START, "").error, /^Not a move/);
});

test("over random games, each legal move's SAN and coordinates typed before the reply name it as a premove", () => {
  let named = 0;
  let ambiguous = 0;
  eachMoveAfterReply(77, 40, (m, then, castling, side, before) => {
    const want = { from: m.from, to: m.to, ...(m.promotion && { promotion: m.promotion }) };
    assert.deepEqual(premoveFromText(then, m.uci, side, castling), want, `${m.uci} typed in ${before}`);
    const bySan = premoveFromText(then, m.san, side, castling);
    if ("error" in bySan) {
      // Pieces the reply's position tells apart may be alike on an open board: the error says which to name.
      assert.match(bySan.error, /could each go to/, `${m.san} typed in ${before}: ${bySan.error}`);
      ambiguous++;
    } else {
      assert.deepEqual(bySan, want, `${m.san} typed in ${before}`);
      named++;
    }
  });
  assert.ok(named > 100_000 && ambiguous < named / 20, `${named} named, ${ambiguous} ambiguous`);
});
