// Game review without a browser: lichess's formulas, the marks of a game with a planted blunder reviewed by the
// real engine in a worker thread, and the annotated PGN written from a review and read back without searching.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { gameAccuracy, markFor, markMoves, moveAccuracy, reviewAnnotations, reviewFromAnnotations, reviewGame, volatilityWeights, winPercent } from "../../www/extras/review.js";
import { loadRules, nodeEngine } from "./engine-node.js";

const rules = await loadRules();

/** 3... Nf6?? allows the scholar's mate; g6, Qe7, Qf6 and Nh6 all hold. */
const BLUNDER_PGN = '[Event "Planted blunder"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';
const DEFENCES = ["g6", "Qe7", "Qf6", "Nh6"];

describe("review formulas", () => {
  test("winning chances and accuracy follow lichess's published curves", () => {
    assert.equal(winPercent(0), 50);
    assert.ok(Math.abs(winPercent(100) - 59.1) < 0.1, String(winPercent(100)));
    assert.ok(Math.abs(winPercent(-300) - 25.0) < 0.2, String(winPercent(-300)));
    assert.ok(Math.abs(moveAccuracy(0) - 100) < 0.01);
    assert.ok(Math.abs(moveAccuracy(10) - 63.7) < 0.2, String(moveAccuracy(10)));
    assert.equal(moveAccuracy(100), 0);
  });

  test("thresholds of 10, 20 and 30 points make inaccuracies, mistakes and blunders", () => {
    assert.deepEqual([9.9, 10, 19.9, 20, 30, 80].map(markFor), [null, "inaccuracy", "inaccuracy", "mistake", "blunder", "blunder"]);
    const { moves, accuracy } = markMoves({
      sans: ["e4", "e5", "Qh5"],
      whiteFirst: true,
      evals: [{ cp: 20 }, { cp: 30 }, { cp: 500 }, { cp: 400 }],
    });
    assert.deepEqual(moves.map((m) => m.mark), [null, "blunder", null]);
    assert.ok(moves[1].winDrop > 30);
    assert.ok(accuracy.white > 85, JSON.stringify(accuracy));
    assert.ok(accuracy.black < 30, JSON.stringify(accuracy));
  });
});

describe("game accuracy, weighted by volatility as lichess does", () => {
  test("a calm game weighs every move alike (0.5) and a swing weighs the moves around it more", () => {
    const calm = volatilityWeights([{ cp: 0 }, { cp: 0 }, { cp: 0 }, { cp: 0 }]);
    assert.deepEqual(calm, [0.5, 0.5, 0.5]);
    // 20 moves: windows of two positions; the swing after move 3 weighs move 3 alone.
    const evals = Array.from({ length: 21 }, (_, i) => ({ cp: i < 3 ? 0 : 900 }));
    const weights = volatilityWeights(evals);
    assert.equal(weights.length, 20);
    assert.ok(weights[2] > 12 - 1e-9, String(weights[2]));
    assert.deepEqual([weights[1], weights[3]], [0.5, 0.5]);
    // A mate counts as the cap, and an unknown evaluation takes the last known one.
    assert.deepEqual(volatilityWeights([{ cp: 1000 }, { mate: 3 }, null]), [0.5, 0.5]);
    assert.deepEqual(volatilityWeights([{ cp: 0 }]), []);
  });

  test("the mean of a weighted and a harmonic mean; one 0 % move does not zero the game", () => {
    assert.equal(gameAccuracy([]), null);
    assert.equal(gameAccuracy([[80, 1], [80, 5]]), 80);
    // Weighted (100·1 + 50·3) / 4 = 62.5; harmonic 2 / (1/100 + 1/50) = 66.67.
    assert.ok(Math.abs(gameAccuracy([[100, 1], [50, 3]]) - (62.5 + 200 / 3) / 2) < 1e-9);
    const withZero = gameAccuracy([[100, 0.5], [0, 0.5], [100, 0.5]]);
    assert.ok(withZero > 30 && withZero < 40, String(withZero));
  });
});

describe("a reviewed game", () => {
  const game = rules.Game.load(BLUNDER_PGN);
  let review;

  test("the planted blunder is marked, with a move that holds as the better one", async () => {
    const seen = [];
    review = await reviewGame({ game, createEngine: () => nodeEngine(), onProgress: (done, total) => seen.push([done, total]) });
    assert.deepEqual(seen.at(-1), [8, 8]);
    assert.equal(review.moves.length, 7);
    const nf6 = review.moves[5];
    assert.equal(nf6.san, "Nf6");
    assert.equal(nf6.mark, "blunder");
    assert.ok(DEFENCES.includes(nf6.bestSan), `better move ${nf6.bestSan}`);
    assert.equal(nf6.bestLine[0], nf6.bestSan);
    assert.ok(nf6.winDrop >= 30);
    assert.equal(review.moves[6].mark, null, "the mate itself is the best move");
    assert.ok(review.accuracy.white > review.accuracy.black, JSON.stringify(review.accuracy));
  });

  test("its annotated PGN reads back with the same marks, better moves and evaluations", () => {
    const texts = reviewAnnotations(review, { 2: { arrows: ["Gd1h5"], circles: ["Rf7"] } });
    const pgn = game.annotatedPgn({ White: "A", Black: "B" }, texts);
    const flat = pgn.replace(/\n/g, " ");
    assert.match(flat, /3\.\.\. Nf6 \$4 \{\[%eval [^\]]+\]\} \(3\.\.\. (g6|Qe7|Qf6|Nh6)/);
    assert.match(flat, /\[%cal Gd1h5\] \[%csl Rf7\]/);
    const loaded = rules.Game.load(pgn);
    const back = reviewFromAnnotations(loaded);
    assert.deepEqual(back.moves.map((m) => m.mark), review.moves.map((m) => m.mark));
    assert.equal(back.moves[5].bestSan, review.moves[5].bestSan);
    assert.deepEqual(back.shapes[2], { arrows: ["Gd1h5"], circles: ["Rf7"] });
    for (let ply = 1; ply < 7; ply++) assert.deepEqual(back.evals[ply], review.evals[ply], `eval after ply ${ply}`);
    assert.equal(reviewFromAnnotations(rules.Game.load("1. e4 e5 *")), null);
    const drawn = reviewFromAnnotations(rules.Game.load("1. e4 e5 {[%cal Gg1f3]} *"));
    assert.equal(drawn.reviewed, false);
    assert.deepEqual(drawn.shapes, { 2: { arrows: ["Gg1f3"], circles: [] } });
  });

  test("bad annotations are refused with the ply and the reason", () => {
    assert.throws(() => game.annotatedPgn({}, ["9 $4"]), /annotation of ply 9: there is no such move/);
    assert.throws(() => game.annotatedPgn({}, ["6 (Kd5)"]), /annotation of ply 6: variation: illegal move/);
  });

  test("a review can be called off", async () => {
    const controller = new AbortController();
    const running = reviewGame({ game, createEngine: () => nodeEngine(), signal: controller.signal, onProgress: (done) => done === 2 && controller.abort() });
    await assert.rejects(running, { name: "AbortError" });
  });
});
