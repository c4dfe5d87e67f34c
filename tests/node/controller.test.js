// The game controller's play policy: draw offers both ways, seeds, search purposes, book moves, pacing and engine
// failures. Policy cases use a scripted engine that answers as told (and records what it was asked); the rest use
// the real engine in a worker thread.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { GameController } from "../../www/game/controller.js";
import { gameRecord, restoreGame, validGame, validSettings } from "../../www/game/settings.js";
import { readSwitch } from "../../www/ui/attributes.js";
import { loadRules, nodeEngine } from "./engine-node.js";

const rules = await loadRules();
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/** A result as the engine returns it, with `fields` on top. */
function result(fields) {
  return { best: null, bestSan: null, ponder: null, score: { cp: 0 }, scoreWhite: { cp: 0 }, resign: false, depth: 5, nodes: 100, elapsedMs: 5, pvUci: [], book: false, offerDraw: false, ...fields };
}

/** An engine client that answers each search with `answer(request)` and records the requests. */
class ScriptedEngine extends EventTarget {
  constructor(answer, { draw = false } = {}) {
    super();
    this.answer = answer;
    this.draw = draw;
    this.requests = [];
    this.drawQuestions = [];
  }
  async search(request, { onProgress } = {}) {
    this.requests.push(request);
    await sleep(1);
    const answer = this.answer(request);
    if (answer instanceof Error) throw answer;
    // A book move comes without a search, so without progress.
    if (!answer.book) onProgress?.({ type: "iteration", depth: 1, seldepth: 1, score: answer.score, scoreWhite: answer.scoreWhite, nodes: 1, nps: 1, elapsedMs: 1, pv: [], pvUci: [] });
    return answer;
  }
  async acceptsDraw(fen, moves, color) {
    this.drawQuestions.push({ fen, moves, color });
    return this.draw;
  }
  stop() {}
  newGame() {}
  destroy() {}
}

/** A controller on a scripted engine; returns both, and the controller's events. */
function scripted(answer, { options = {}, fen = START, draw = false } = {}) {
  const engine = new ScriptedEngine(answer, { draw });
  const controller = new GameController({ rules, createEngine: () => engine, options: { book: false, ...options }, thinkMs: () => 0 });
  const events = [];
  for (const type of ["move", "hint", "book", "drawoffer", "drawanswer", "gameover", "error", "engine"]) {
    controller.addEventListener(type, (event) => events.push({ type, detail: event.detail }));
  }
  controller.setGame(new rules.Game(fen));
  return { controller, engine, events };
}

const until = async (check, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !check()) await sleep(5);
  return check();
};

describe("draw offers", () => {
  test("the engine is asked with its own colour, whoever is to move", async () => {
    const { controller, engine } = scripted(() => result({ best: "e7e5" }), { options: { player: "white" }, draw: false });
    assert.equal(await controller.offerDraw(), false);
    assert.equal(engine.drawQuestions[0].color, "b", "the human plays White: the engine is Black");
    const black = scripted(() => result({ best: "e2e4" }), { options: { player: "black" }, draw: true });
    await until(() => black.controller.game.ply() === 1);
    assert.equal(await black.controller.offerDraw(), true);
    assert.equal(black.engine.drawQuestions[0].color, "w");
    assert.equal(black.controller.game.outcome().reason, "agreement");
  });

  test("no draw offers to the engine in two-human or engine-against-engine games", async () => {
    for (const player of ["both", "none"]) {
      const { controller, engine } = scripted(() => result({ best: null }), { options: { player, analysis: false }, draw: true });
      assert.equal(controller.canOfferDraw(), false);
      assert.equal(await controller.offerDraw(), null);
      assert.equal(engine.drawQuestions.length, 0);
      assert.equal(controller.isOver(), false, `${player}: the game goes on`);
      controller.dispose();
    }
  });

  test("the engine's own offer is shown to a human opponent, and accepting ends the game", async () => {
    const { controller, events } = scripted(() => result({ best: "e7e5", offerDraw: true }), { options: { player: "white" } });
    controller.move("e2e4");
    assert.ok(await until(() => events.some((e) => e.type === "drawoffer")));
    assert.equal(controller.drawOffered, true);
    controller.answerDrawOffer(true);
    const { result: score, reason } = controller.game.outcome();
    assert.deepEqual({ score, reason }, { score: "1/2-1/2", reason: "agreement" });
  });

  test("declining or moving on closes the engine's offer; an engine playing itself never offers", async () => {
    const { controller, events } = scripted(() => result({ best: "e7e5", offerDraw: true }), { options: { player: "white" } });
    controller.move("e2e4");
    await until(() => controller.drawOffered);
    controller.answerDrawOffer(false);
    assert.equal(controller.drawOffered, false);
    assert.equal(controller.isOver(), false);
    const selfPlay = scripted((r) => result({ best: r.moves.length % 2 ? "e7e5" : "e2e4", offerDraw: true }), { options: { player: "none" } });
    await until(() => selfPlay.controller.game.ply() >= 2);
    assert.ok(!selfPlay.events.some((e) => e.type === "drawoffer"));
    selfPlay.controller.dispose();
    void events;
  });
});

describe("search purposes", () => {
  test("play, hint and analysis searches say what they are for", async () => {
    const { controller, engine } = scripted(() => result({ best: "e7e5" }), { options: { player: "white" } });
    controller.hint();
    await until(() => engine.requests.length === 1);
    controller.move("e2e4");
    await until(() => engine.requests.length === 2);
    const both = scripted(() => result({ best: null }), { options: { player: "both", analysis: true } });
    await until(() => both.engine.requests.length === 1);
    assert.deepEqual([...engine.requests.map((r) => r.purpose), both.engine.requests[0].purpose], ["hint", "play", "analyse"]);
    both.controller.dispose();
  });
});

describe("book moves", () => {
  test("a hint from the book is a hint, not a played move", async () => {
    const { controller, events } = scripted(() => result({ best: "e2e4", bestSan: "e4", book: true }), { options: { player: "white" } });
    controller.hint();
    await until(() => events.some((e) => e.type === "hint"));
    assert.deepEqual(events.find((e) => e.type === "book").detail, { san: "e4", kind: "hint" });
    assert.equal(events.find((e) => e.type === "hint").detail.book, true);
    assert.equal(controller.game.ply(), 0, "nothing was played");
  });

  test("book moves keep the last searched evaluation instead of 0.00", async () => {
    let calls = 0;
    const answer = (r) => (++calls === 1 ? result({ best: "e7e5", scoreWhite: { cp: 42 } }) : result({ best: r.moves.length === 1 ? "e7e5" : "b8c6", book: true }));
    const { controller } = scripted(answer, { options: { player: "white" } });
    controller.move("e2e4");
    await until(() => controller.game.ply() === 2);
    controller.move("g1f3");
    await until(() => controller.game.ply() === 4);
    assert.deepEqual(controller.evals[1], { cp: 42 });
    assert.deepEqual(controller.evals[3], { cp: 42 }, "the book move's ply shows the last evaluation");
    assert.ok(!controller.evals.some((e) => e && e.cp === 0), "no 0.00 from the book");
  });
});

describe("level time", () => {
  test("level 8 by level sends the level's time, from levelThinkMs", () => {
    const controller = new GameController({ rules, createEngine: () => null, options: { level: 8, think: "level" } });
    assert.equal(controller.limits().movetimeMs, rules.levelThinkMs(8));
    controller.configure({ level: 3 });
    assert.equal(controller.limits().movetimeMs, undefined, "levels 1-7 stop at their caps");
    assert.equal(controller.thinkMs(3), rules.levelThinkMs(3));
  });

  test("a level-1 search is paced over levelThinkMs, showing its events", async () => {
    const controller = new GameController({ rules, createEngine: () => nodeEngine(), options: { player: "both", analysis: false, level: 1, book: false } });
    controller.setGame(new rules.Game());
    // The worker is up before the search starts, so the whole think is paced events (a busy machine's slow
    // worker start would eat into it).
    const engine = await controller.ensureEngine();
    await new Promise((resolve) => engine.addEventListener("ready", resolve, { once: true }));
    const seen = [];
    controller.addEventListener("thinking", () => seen.push(Date.now()));
    let moved = 0;
    controller.addEventListener("move", () => (moved = Date.now()));
    const began = Date.now();
    controller.configure({ player: "black" });
    try {
      assert.ok(await until(() => moved, 10_000), "the engine moved");
      const least = rules.levelThinkMs(1);
      assert.ok(moved - began >= least - 5, `took ${moved - began} ms of at least ${least}`);
      assert.ok(seen.length >= 3, `${seen.length} thinking events shown`);
      assert.ok(seen.at(-1) - seen[0] >= least / 3, "the events are spread over the think, not shown at once");
    } finally {
      controller.dispose();
    }
  });
});

describe("seeds", () => {
  /** Plays `plies` moves engine against engine at level 3 from the start; returns them. */
  async function selfPlay(seed, plies = 10) {
    const controller = new GameController({ rules, createEngine: () => nodeEngine(), options: { player: "none", level: 3, book: true }, seed, thinkMs: () => 0 });
    controller.setGame(new rules.Game());
    try {
      assert.ok(await until(() => controller.game.ply() >= plies || controller.isOver(), 60_000));
      return controller.game.historyUci().slice(0, plies).join(" ");
    } finally {
      controller.dispose();
    }
  }

  test("two fresh players at level 3 from the same position play different games", async () => {
    const [a, b] = [await selfPlay(null), await selfPlay(null)];
    assert.notEqual(a, b);
  });

  test("the same seed replays the same game", async () => {
    assert.equal(await selfPlay(12345, 8), await selfPlay(12345, 8));
  });
});

describe("engine failures", () => {
  test("a missing worker file fails visibly; retrying tries again, and the board stays playable for two", async () => {
    const controller = new GameController({
      rules,
      createEngine: () => nodeEngine({ workerUrl: new URL("../../www/engine/no-such-worker.js", import.meta.url) }),
      options: { player: "black", level: 3 },
    });
    const errors = [];
    controller.addEventListener("error", (event) => errors.push(event.detail.message));
    controller.setGame(new rules.Game());
    try {
      assert.ok(await until(() => controller.engineState === "failed", 10_000), "the failure is reported");
      assert.match(controller.engineMessage, /^The engine stopped: /);
      await sleep(1000);
      assert.equal(errors.length, 1, `one failure, one error: ${errors.join(" | ")}`);
      assert.equal(controller.searching, null, "no search is left pending");
      controller.retryEngine();
      assert.ok(await until(() => controller.engineState === "failed", 10_000), "a retry runs into the same failure");
      controller.configure({ player: "both", analysis: false });
      assert.ok(controller.move("e2e4") && controller.move("e7e5"), "two people play on");
    } finally {
      controller.dispose();
    }
  });

  test("a refused request is an engine failure, not silence", async () => {
    const { controller, events } = scripted(() => new Error("bad search request: the request sets no limit"), { options: { player: "black" } });
    await until(() => controller.engineState === "failed");
    assert.match(controller.engineMessage, /sets no limit/);
    assert.ok(events.some((e) => e.type === "error"));
    assert.equal(controller.thinking, false);
  });
});

describe("settings and attributes", () => {
  test("stored settings keep only the fields of the right shape", () => {
    assert.deepEqual(validSettings({ level: "x", think: "abc", evals: "no", player: "black", sound: "yes", boardTheme: "walnut" }), { player: "black", boardTheme: "walnut" });
    assert.deepEqual(validSettings({ level: 9, think: "5", book: false }), { book: false });
    assert.deepEqual(validSettings({ level: 3, think: "1500" }), { level: 3, think: "1500" });
    assert.deepEqual(validSettings("junk"), {});
    assert.deepEqual(validGame({ startFen: START, moves: ["e2e4"], evals: "x" }).evals, []);
    assert.equal(validGame({ startFen: START, moves: "e2e4" }), null);
  });

  test("a stored game comes back as it was: past a draw nobody claimed, with a result read from a PGN", () => {
    const stored = (pgn) => {
      const game = rules.Game.load(pgn);
      // Through JSON, as localStorage keeps it.
      return { game, back: restoreGame(rules, validGame(JSON.parse(JSON.stringify(gameRecord(game, []))))) };
    };
    // The repetition after move 4 was not claimed, and the game went on.
    const dance = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5";
    let { game, back } = stored(`${dance} *`);
    assert.ok(back, "restored");
    assert.deepEqual(back.historySan(), game.historySan());
    assert.equal(back.outcome(), null);
    assert.ok(back.play("Nf3"), "the game goes on");
    ({ game, back } = stored(`${dance} 1-0`));
    assert.deepEqual(back.outcome(), game.outcome());
    assert.equal(back.outcome().reason, "unspecified");
    ({ game, back } = stored("1. f3 e5 2. g4 Qh4# 0-1"));
    assert.equal(back.outcome().reason, "checkmate");
    // Endings the players decided still come back, and a record whose moves no longer play says why.
    const resigned = rules.Game.load("1. e4 e5 *");
    resigned.resign("b");
    assert.deepEqual(restoreGame(rules, validGame(gameRecord(resigned, []))).outcome(), resigned.outcome());
    assert.throws(() => restoreGame(rules, validGame({ startFen: START, moves: ["e2e4", "e2e4"] })), /e2e4/);
    assert.equal(validGame({ startFen: START, moves: [], ending: { result: "1-0", reason: "whim" } }).ending, null);
  });

  test("a stored game loaded from a PGN keeps its tags and annotations, and says so when it cannot", () => {
    const pgn = '[Event "Club final"]\n[White "Ada"]\n[Black "Ben"]\n\n1. e4 {The best by test.} e5 2. Nf3 $1 {[%cal Gf3e5]} Nc6 *';
    const game = rules.Game.load(pgn);
    game.play("Bb5");
    const record = JSON.parse(JSON.stringify(gameRecord(game, [])));
    assert.match(record.source, /\[White "Ada"\]/);
    const back = restoreGame(rules, validGame(record));
    assert.deepEqual(back.historyUci(), game.historyUci());
    assert.deepEqual(back.annotations(), game.annotations());
    const text = back.pgn({ White: "Human", Event: "Homeostat game" });
    assert.match(text, /\[White "Ada"\]/);
    assert.match(text, /\[Event "Club final"\]/);
    assert.match(text, /1\. e4 \{The best by test\.\} 1\.\.\. e5 2\. Nf3 \$1 \{\[%cal Gf3e5\]\} 2\.\.\. Nc6 3\. Bb5/);
    // A game never loaded from a PGN stores none; a damaged one comes back without, and the person is told.
    assert.equal(gameRecord(new rules.Game(), []).source, null);
    const warnings = [];
    const damaged = restoreGame(rules, validGame({ ...record, source: "1. e4 e4" }), (m) => warnings.push(m));
    assert.deepEqual(damaged.historyUci(), game.historyUci());
    assert.deepEqual(damaged.annotations(), []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^the saved game's PGN tags and annotations could not be read back: the PGN the game was loaded from: /);
    assert.equal(validGame({ ...record, source: 42 }).source, null);
  });

  test("on/off attributes take only on/off words", () => {
    assert.deepEqual(readSwitch("sound", "", false), { value: true });
    assert.deepEqual(readSwitch("sound", "OFF", true), { value: false });
    assert.deepEqual(readSwitch("sound", null, true), { value: true });
    assert.match(readSwitch("readonly", "maybe", false).error, /^readonly="maybe": use on or off/);
  });
});
