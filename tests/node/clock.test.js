// Chess clocks: the time control's text, the display, the clocks themselves on a fake time source, and the
// controller's use of them with a scripted engine (the flag, its result, the engine's clock in its requests, undo).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ChessClock, formatClock } from "../../www/extras/clock.js";
import { GameController } from "../../www/game/controller.js";
import { gameRecord, parseClock, restoreGame, validGame, validSettings } from "../../www/game/settings.js";
import { loadRules } from "./engine-node.js";

const rules = await loadRules();

describe("time control text", () => {
  test("minutes (fractional too) and seconds of increment", () => {
    assert.deepEqual(parseClock("5+3").value, { baseMs: 300_000, incMs: 3000 });
    assert.deepEqual(parseClock(" 0.5 + 0 ").value, { baseMs: 30_000, incMs: 0 });
    assert.deepEqual(parseClock("15+10").value, { baseMs: 900_000, incMs: 10_000 });
    assert.deepEqual(parseClock("1").value, { baseMs: 60_000, incMs: 0 });
    assert.deepEqual(parseClock("0.05+0").value, { baseMs: 3000, incMs: 0 });
  });

  test("anything else is an error that says how to write it", () => {
    for (const bad of ["", "0+5", "five", "5+", "-1+2", "5+3+1", "1000+0", "5:00", "5+700"]) {
      const reading = parseClock(bad);
      assert.equal(reading.value, undefined, bad);
      assert.match(reading.error, /^clock=".*": write minutes and an increment in seconds, such as 5\+3/, bad);
    }
  });

  test("the display: minutes and seconds, tenths under ten seconds, hours when needed", () => {
    assert.equal(formatClock(300_000), "5:00");
    assert.equal(formatClock(61_001), "1:02");
    assert.equal(formatClock(10_000), "0:10");
    assert.equal(formatClock(9_450), "0:09.4");
    assert.equal(formatClock(0), "0:00.0");
    assert.equal(formatClock(-50), "0:00.0");
    assert.equal(formatClock(3_723_000), "1:02:03");
  });
});

describe("the clocks on a fake time source", () => {
  const fake = () => {
    const time = { t: 1000 };
    return { time, now: () => time.t };
  };

  test("nothing runs before the first move; a move charges its side, adds the increment and starts the other", () => {
    const { time, now } = fake();
    const clock = new ChessClock({ baseMs: 60_000, incMs: 2000 }, now);
    time.t += 5000;
    assert.equal(clock.timeLeft("w"), 60_000, "White's first move takes no time");
    assert.equal(clock.msToFlag(), Infinity);
    clock.moved("w");
    assert.equal(clock.timeLeft("w"), 62_000);
    time.t += 7000;
    assert.equal(clock.timeLeft("b"), 53_000);
    assert.equal(clock.msToFlag(), 53_000);
    clock.moved("b");
    assert.equal(clock.timeLeft("b"), 55_000);
    time.t += 1500;
    assert.equal(clock.timeLeft("w"), 60_500);
    clock.moved("w", true);
    assert.equal(clock.running, null, "a move that ends the game stops both clocks");
    time.t += 10_000;
    assert.deepEqual([clock.timeLeft("w"), clock.timeLeft("b")], [62_500, 55_000]);
  });

  test("the flag, the low-time mark, stopping and restarting", () => {
    const { time, now } = fake();
    const clock = new ChessClock({ baseMs: 60_000, incMs: 0 }, now);
    clock.run("b");
    time.t += 50_000;
    assert.equal(clock.isLow("b"), false, "10 s left of a minute is not yet below a tenth");
    time.t += 4_500;
    assert.equal(clock.isLow("b"), true);
    assert.equal(clock.isLow("w"), false);
    clock.stop();
    time.t += 100_000;
    assert.equal(clock.timeLeft("b"), 5500, "a stopped clock keeps its time");
    assert.equal(clock.flagged(), null);
    clock.run("b");
    time.t += 5500;
    assert.equal(clock.flagged(), "b");
    assert.equal(clock.timeLeft("b"), 0);
    time.t += 1000;
    assert.equal(clock.timeLeft("b"), 0, "never below zero");
    const long = new ChessClock({ baseMs: 900_000, incMs: 0 }, now);
    long.run("w");
    time.t += 881_000;
    assert.equal(long.isLow("w"), true, "at most 20 seconds is low however long the game");
  });

  test("a running clock wakes its owner when it reaches zero, and tells it of every start and stop", async () => {
    const flags = [];
    let changes = 0;
    const clock = new ChessClock({ baseMs: 40, incMs: 0 }, undefined, { onFlag: (color) => flags.push(color), onChange: () => changes++ });
    clock.moved("w");
    assert.equal(clock.running, "b");
    await sleep(150);
    assert.deepEqual(flags, ["b"]);
    assert.equal(clock.running, null, "a flagged clock stops");
    assert.ok(changes >= 1);
    assert.deepEqual(clock.limits(), { wtimeMs: 40, btimeMs: 0, wincMs: 0, bincMs: 0 });
  });

  test("the clock setting is kept only when it reads as a time control", () => {
    assert.equal(validSettings({ clock: "5+3" }).clock, "5+3");
    assert.equal(validSettings({ clock: "" }).clock, "");
    assert.deepEqual(validSettings({ autoQueen: true, premoves: false }), { autoQueen: true, premoves: false });
    assert.deepEqual(validSettings({ autoQueen: "yes" }), {}, "a stored setting of the wrong shape is dropped");
    assert.equal(validSettings({ clock: "5 minutes" }).clock, undefined);
    assert.equal(validSettings({ clock: 5 }).clock, undefined);
  });
});

/** An engine that plays the first legal move at once, recording the requests. */
class FirstMoveEngine extends EventTarget {
  constructor() {
    super();
    this.requests = [];
  }
  async search(request) {
    this.requests.push(request);
    await sleep(1);
    const game = new rules.Game(request.fen);
    for (const move of request.moves) game.play(move);
    const best = game.legalMoves()[0].uci;
    game.free();
    return { best, bestSan: null, ponder: null, score: { cp: 0 }, scoreWhite: { cp: 0 }, resign: false, depth: 1, nodes: 1, elapsedMs: 1, pvUci: [best], book: false, offerDraw: false };
  }
  stop() {}
  newGame() {}
  destroy() {}
}

/** A controller with a clock against the first-move engine; returns it, the engine and the game-over events. */
function clocked(control, { player = "white", fen } = {}) {
  const engine = new FirstMoveEngine();
  const controller = new GameController({ rules, createEngine: () => engine, options: { book: false, player, clock: control }, thinkMs: () => 0, Clock: ChessClock });
  const over = [];
  controller.addEventListener("gameover", (event) => over.push(event.detail));
  controller.setGame(new rules.Game(fen));
  return { controller, engine, over };
}

const until = async (check, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !check()) await sleep(5);
  return check();
};

describe("the controller on the clock", () => {
  test("the person's flag loses on time; the engine's requests carry both clocks", async () => {
    const { controller, engine, over } = clocked({ baseMs: 300, incMs: 0 });
    assert.ok(controller.clock, "a time control gives the game clocks");
    controller.move("e2e4");
    await until(() => controller.game.ply() === 2);
    const request = engine.requests[0];
    assert.equal(request.wtimeMs, 300, "White's first move took no time");
    assert.ok(request.btimeMs > 0 && request.btimeMs <= 300);
    assert.deepEqual([request.wincMs, request.bincMs], [0, 0]);
    assert.ok(await until(() => over.length > 0, 3000), "White's clock runs out");
    assert.deepEqual(over[0], { result: "0-1", reason: "time" });
    assert.equal(controller.clock.timeLeft("w"), 0);
    assert.equal(controller.clock.running, null);
    assert.equal(controller.undo(), false, "a game lost on time is not taken back");
    controller.dispose();
  });

  test("an engine that overruns its clock loses on time, and its search is called off", async () => {
    const engine = new FirstMoveEngine();
    let stopped = 0;
    // A search that never ends by itself.
    engine.search = (request) => (engine.requests.push(request), new Promise(() => {}));
    engine.stop = () => stopped++;
    const controller = new GameController({ rules, createEngine: () => engine, options: { book: false, player: "white", clock: { baseMs: 200, incMs: 0 } }, thinkMs: () => 0, Clock: ChessClock });
    const over = [];
    controller.addEventListener("gameover", (event) => over.push(event.detail));
    controller.setGame(new rules.Game());
    controller.move("e2e4");
    assert.ok(await until(() => over.length > 0, 3000));
    assert.deepEqual(over[0], { result: "1-0", reason: "time" });
    assert.equal(controller.thinking, false);
    assert.ok(stopped >= 1, "the engine was told to stop");
    controller.dispose();
  });

  test("a flag against a side that cannot mate is a draw", async () => {
    // Black (the person) has a queen, White (the engine) a lone knight: Black's flag draws.
    const { controller, over } = clocked({ baseMs: 200, incMs: 0 }, { player: "black", fen: "3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1" });
    assert.ok(await until(() => over.length > 0, 3000));
    assert.deepEqual(over[0], { result: "1/2-1/2", reason: "time" });
    controller.dispose();
  });

  test("take-backs keep the times and hand the running clock to the side to move", async () => {
    const { controller } = clocked({ baseMs: 60_000, incMs: 1000 });
    controller.move("e2e4");
    await until(() => controller.game.ply() === 2);
    const before = controller.clock.timeLeft("b");
    assert.ok(before > 60_000 - 1000 && before <= 61_000, "Black got its increment");
    assert.equal(controller.undo(), true);
    assert.equal(controller.game.ply(), 0);
    assert.equal(controller.clock.running, null, "back at the start no clock runs");
    assert.ok(Math.abs(controller.clock.timeLeft("b") - before) < 50, "the times stay as they were");
    controller.move("d2d4");
    await until(() => controller.game.ply() === 2);
    assert.equal(controller.clock.running, "w");
    controller.dispose();
  });

  test("a read-only viewer has no clocks; back in play they start afresh", () => {
    const { controller } = clocked({ baseMs: 60_000, incMs: 0 });
    controller.move("e2e4");
    controller.setReadonly(true);
    assert.equal(controller.clock, null);
    controller.setReadonly(false);
    assert.equal(controller.clock.timeLeft("w"), 60_000);
    controller.dispose();
  });

  test("a new time control applies at once before the first move, else from the next game", () => {
    const { controller } = clocked(null);
    assert.equal(controller.clock, null, "no clock by default");
    controller.setClock({ baseMs: 180_000, incMs: 2000 });
    assert.equal(controller.clock.timeLeft("w"), 180_000);
    controller.move("e2e4");
    controller.setClock({ baseMs: 600_000, incMs: 5000 });
    assert.equal(controller.clock.baseMs, 180_000, "the game in progress keeps its clocks");
    controller.setGame(new rules.Game());
    assert.equal(controller.clock.baseMs, 600_000);
    controller.setClock(null);
    assert.equal(controller.clock, null);
    controller.dispose();
  });

  test("a stored game's clocks come back with their times, at the same time control only", async () => {
    const { controller } = clocked({ baseMs: 60_000, incMs: 1000 });
    controller.move("e2e4");
    await until(() => controller.game.ply() === 2);
    controller.clock.left = { w: 41_000, b: 12_500 };
    // Through JSON, as localStorage keeps it.
    const saved = validGame(JSON.parse(JSON.stringify(gameRecord(controller.game, controller.evals, controller.clock))));
    assert.equal(saved.clocks.baseMs, 60_000);
    assert.ok(saved.clocks.w <= 41_000 && saved.clocks.w > 40_000, JSON.stringify(saved.clocks));
    assert.equal(saved.clocks.b, 12_500);
    controller.dispose();
    const back = clocked({ baseMs: 60_000, incMs: 1000 });
    back.controller.setGame(restoreGame(rules, saved), saved.evals, saved.clocks);
    assert.equal(back.controller.clock.timeLeft("b"), 12_500);
    assert.ok(back.controller.clock.timeLeft("w") <= 41_000);
    back.controller.dispose();
    // Another control starts afresh; stored times of the wrong shape are dropped.
    const other = clocked({ baseMs: 180_000, incMs: 2000 });
    other.controller.setGame(restoreGame(rules, saved), saved.evals, saved.clocks);
    assert.equal(other.controller.clock.timeLeft("b"), 180_000);
    other.controller.dispose();
    assert.equal(gameRecord(new rules.Game(), []).clocks, null, "an untimed game stores none");
    for (const bad of [{ ...saved.clocks, w: -1 }, { ...saved.clocks, b: "5" }, { ...saved.clocks, incMs: Infinity }, "60000"]) {
      assert.equal(validGame({ ...saved, clocks: bad }).clocks, null, JSON.stringify(bad));
    }
  });
});
