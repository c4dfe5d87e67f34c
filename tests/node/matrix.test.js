// Every configuration plays: the game controller the page uses, with the real wasm engine in a worker thread,
// over levels 1–8 × think setting × who plays × start position. In each case the engine makes a legal move within
// its bound where it should move, stays silent where it should not, and no error occurs.
//
//   node --test tests/node/matrix.test.js     (after `make wasm`; MATRIX_LEVELS=1,8 to run fewer levels)

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { GameController } from "../../www/game/controller.js";
import { loadRules, nodeEngine } from "./engine-node.js";

/** Short think times, so the whole matrix runs in a few minutes on two cores. */
const THINK_MS = (level) => (level === 8 ? 150 : 60);
const MOVETIME_MS = 100;
const ADAPTIVE = { thinkMinMs: 50, thinkMaxMs: 200 };
/** Allowance on top of a bound for a busy CI machine and the worker's start-up (thread and wasm compile). */
const SLACK_MS = 2500;
/** The level caps' own time at level 7 (1.5 million nodes) on a slow machine. */
const LEVEL7_MS = 6000;

const STARTS = {
  "start position": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  "middlegame out of book": "r2q1rk1/pb1nbppp/1p2pn2/2pp4/3P1B2/2PBPN2/PP1N1PPP/R2Q1RK1 b - - 3 9",
  "pawn endgame": "8/pp3k2/4p3/3p4/3P4/4PK2/PP6/8 w - - 0 1",
};

const THINKS = {
  "level default": { think: "level" },
  movetime: { think: String(MOVETIME_MS) },
  "adaptive think-min/think-max": { think: "adaptive", ...ADAPTIVE },
};

const WHO = {
  white: { player: "white" },
  black: { player: "black" },
  none: { player: "none" },
  "both, analysis on": { player: "both", analysis: true },
  "both, analysis off": { player: "both", analysis: false },
};

const LEVELS = (process.env.MATRIX_LEVELS?.split(",").map(Number) ?? [1, 2, 3, 4, 5, 6, 7, 8]).filter((n) => n >= 1 && n <= 8);

/** The most a move may take in a configuration. */
function boundMs(level, think) {
  if (think.think === "adaptive") return ADAPTIVE.thinkMaxMs + SLACK_MS;
  if (think.think !== "level") return MOVETIME_MS + SLACK_MS;
  return THINK_MS(level) + (level === 7 ? LEVEL7_MS : 0) + SLACK_MS;
}

/** Records a controller's events with the time they came. */
function record(controller) {
  const log = [];
  const t0 = performance.now();
  for (const type of ["move", "searchstart", "searchend", "thinking", "error", "engine", "gameover", "enginestart"]) {
    controller.addEventListener(type, (event) => log.push({ type, at: performance.now() - t0, detail: event.detail }));
  }
  return log;
}

/** Waits until `check(log)` holds, up to `ms`; returns whether it did. */
async function until(check, ms) {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (check()) return true;
    await sleep(5);
  }
  return check();
}

/** The legal moves (UCI) of the controller's current position. */
const legalUci = (game) => game.legalMoves().map((m) => m.uci);

/**
 * Waits for the engine's next move and checks it: legal, within the bound, preceded by a visible think.
 * @returns {Promise<object>} the move event
 */
async function expectEngineMove(controller, log, bound, paceMs, label) {
  const legal = legalUci(controller.game);
  const before = log.filter((e) => e.type === "move").length;
  const start = log.findLast((e) => e.type === "searchstart" && e.detail.kind === "play");
  assert.ok(start, `${label}: the engine started no search`);
  const moved = await until(() => log.filter((e) => e.type === "move").length > before, bound);
  const errors = log.filter((e) => e.type === "error").map((e) => e.detail.message);
  assert.deepEqual(errors, [], `${label}: errors`);
  assert.ok(moved, `${label}: the engine made no move within ${bound} ms`);
  const move = log.filter((e) => e.type === "move")[before];
  assert.equal(move.detail.by, "engine", `${label}: the move was not the engine's`);
  assert.ok(legal.includes(move.detail.uci), `${label}: ${move.detail.uci} is not legal (${legal.join(" ")})`);
  const took = move.at - start.at;
  assert.ok(took <= bound, `${label}: the move took ${Math.round(took)} ms, more than ${bound}`);
  if (paceMs) {
    assert.ok(took >= paceMs - 5, `${label}: a paced think took only ${Math.round(took)} ms of ${paceMs}`);
    const seen = log.some((e) => e.type === "thinking" && e.at >= start.at && e.at <= move.at && e.detail.kind === "play");
    const book = log.some((e) => e.type === "searchend" && e.at >= start.at && e.detail.result?.book);
    assert.ok(seen || book, `${label}: no thinking was shown before the move`);
  }
  return move;
}

const rules = await loadRules();
let cases = 0;

// Three cases at a time: most of a case is waiting (the think pace, the checks that nothing happens), so this
// takes a minute instead of three on two cores, and each bound already allows a busy machine.
describe("every configuration plays", { concurrency: 3 }, () => {
  for (const level of LEVELS) {
    for (const [thinkName, think] of Object.entries(THINKS)) {
      for (const [who, play] of Object.entries(WHO)) {
        for (const [startName, fen] of Object.entries(STARTS)) {
          cases++;
          const label = `level ${level}, ${thinkName}, player ${who}, ${startName}`;
          test(label, { timeout: 30_000 }, async () => {
            const controller = new GameController({
              rules,
              createEngine: () => nodeEngine(),
              options: { level, book: true, analysis: false, ...think, ...play },
              thinkMs: THINK_MS,
            });
            const log = record(controller);
            try {
              controller.setGame(new rules.Game(fen));
              const bound = boundMs(level, think);
              const pace = think.think === "level" ? THINK_MS(level) : 0;
              const engineSide = { white: "b", black: "w" }[play.player];
              const count = (type) => log.filter((e) => e.type === type).length;
              if (play.player === "both") {
                // Two humans: the engine never moves; it analyses only when asked to.
                await sleep(300);
                const human = legalUci(controller.game)[0];
                assert.ok(controller.move(human, "human"), `${label}: the human move ${human} was refused`);
                await sleep(300);
                assert.equal(count("move"), 1, `${label}: a move was made for a human`);
                if (play.analysis) {
                  const analysed = await until(() => log.some((e) => e.type === "thinking" && e.detail.kind === "analyse"), bound + 3000);
                  assert.ok(analysed, `${label}: no analysis was shown`);
                  assert.ok(controller.searching?.kind === "analyse", `${label}: the analysis stopped`);
                } else {
                  assert.equal(controller.engineStarts, 0, `${label}: the engine started without a reason`);
                  assert.equal(count("searchstart"), 0, `${label}: a search ran`);
                }
              } else if (play.player === "none") {
                // The engine plays both sides, one move after the other.
                await expectEngineMove(controller, log, bound, pace, `${label}, first move`);
                await until(() => log.findLast((e) => e.type === "searchstart"), 100);
                if (!controller.isOver()) await expectEngineMove(controller, log, bound, pace, `${label}, second move`);
              } else {
                if (controller.game.turn() !== engineSide) {
                  // The human's turn: the engine waits.
                  await sleep(200);
                  assert.equal(count("move"), 0, `${label}: the engine moved for the human`);
                  assert.equal(count("searchstart"), 0, `${label}: the engine searched on the human's turn`);
                  const human = legalUci(controller.game)[0];
                  assert.ok(controller.move(human, "human"), `${label}: the human move ${human} was refused`);
                }
                await expectEngineMove(controller, log, bound, pace, label);
                // Then it waits for the human again.
                await sleep(100);
                assert.equal(log.filter((e) => e.type === "move" && e.detail.by === "engine").length, 1, `${label}: the engine moved twice`);
                assert.equal(controller.searching, null, `${label}: a search runs on the human's turn`);
              }
              const errors = log.filter((e) => e.type === "error").map((e) => e.detail.message);
              assert.deepEqual(errors, [], `${label}: errors`);
              assert.notEqual(controller.engineState, "failed", `${label}: the engine failed`);
            } finally {
              controller.dispose();
            }
          });
        }
      }
    }
  }
  test("the matrix has every case", () => {
    assert.equal(cases, LEVELS.length * 3 * 5 * 3);
  });
});

describe("the matrix positions", () => {
  test("the middlegame is out of the opening book; the endgame has only kings and pawns", () => {
    const game = new rules.Game(STARTS["middlegame out of book"]);
    for (let seed = 1; seed <= 20; seed++) assert.equal(game.bookMove(seed) ?? null, null);
    assert.match(STARTS["pawn endgame"].split(" ")[0], /^[kKpP1-8/]+$/);
  });
});
