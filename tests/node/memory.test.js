// The player's side of the shared memory (www/extras/memory.js through the game controller): a stored move is played
// with the panel's line, a miss is searched and submitted, a memory that is slow, broken, refusing or lying never
// stops the game, and the weaker levels leave it alone. The memory is a tiny HTTP server in the test, reached with
// the real fetch; the engine is scripted.

import assert from "node:assert/strict";
import http from "node:http";
import { after, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { GameController } from "../../www/game/controller.js";
import { expectedDepth, noteDepth, SharedMemory, SubmitBudget, typicalDepth } from "../../www/extras/memory.js";
import { readMemoryUrl } from "../../www/ui/attributes.js";
import { loadRules } from "./engine-node.js";

const rules = await loadRules();
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const ENGINE = "Homeostat 0.1.0 bench 12345";
/** The level-8 setting the tests play at: 300 ms a move, no book. */
const LEVEL8 = { level: 8, think: "300", book: false };

/** An engine client that answers each search with `answer(request)` and records the requests. */
class ScriptedEngine extends EventTarget {
  constructor(answer) {
    super();
    this.answer = answer;
    this.requests = [];
  }
  async search(request) {
    this.requests.push(request);
    await sleep(1);
    return this.answer(request);
  }
  stop() {}
  newGame() {}
  destroy() {}
}

/**
 * A scripted engine whose searches take `holdMs` (when set) unless stopped; a stopped search rejects as the real
 * client's does (an AbortError), and `stops` counts the stops.
 */
class PatientEngine extends ScriptedEngine {
  holdMs = 0;
  stops = 0;
  #pending = null;
  async search(request) {
    if (!this.holdMs) return super.search(request);
    this.requests.push(request);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => ((this.#pending = null), resolve(this.answer(request))), this.holdMs);
      this.#pending = () => {
        clearTimeout(timer);
        reject(Object.assign(new Error("search stopped"), { name: "AbortError" }));
      };
    });
  }
  stop() {
    if (!this.#pending) return;
    this.stops++;
    const abort = this.#pending;
    this.#pending = null;
    abort();
  }
}

/** A search result with `fields` on top. */
function result(fields) {
  return { best: null, bestSan: null, ponder: null, score: { cp: 0 }, scoreWhite: { cp: 0 }, resign: false, depth: 9, nodes: 40_000, elapsedMs: 300, pvUci: [], book: false, offerDraw: false, ...fields };
}

/** The engine's move: the first legal one, searched to depth 9 with a two-move line. */
function firstMove(request) {
  const game = new rules.Game(request.fen);
  for (const m of request.moves) game.play(m);
  const move = game.legalMoves()[0].uci;
  game.free?.();
  return result({ best: move, score: { cp: 12 }, pvUci: [move] });
}

const servers = [];
after(() => Promise.all(servers.map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve))))));

/**
 * A memory server: `lookup(url)` answers GET /v1/memory ({status, body} or null to hang), `stats` the identity;
 * every request is recorded in `requests` ({method, path, query, body}).
 */
async function fakeMemory({ lookup = () => ({ status: 404, body: { error: "none" } }), engine = ENGINE, submit = () => ({ status: 201, body: { result: "stored" } }) } = {}) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    let body = "";
    for await (const chunk of req) body += chunk;
    const record = { method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: body ? JSON.parse(body) : null };
    requests.push(record);
    const answer = url.pathname === "/mem/v1/stats" ? { status: 200, body: { engine } } : req.method === "POST" ? submit(record) : lookup(record);
    if (!answer) return; // hangs: never answers
    if (answer.delayMs) await sleep(answer.delayMs);
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${server.address().port}/mem/`, requests, lookups: () => requests.filter((r) => r.path === "/mem/v1/memory" && r.method === "GET"), submissions: () => requests.filter((r) => r.method === "POST") };
}

/** A storage that keeps items in a Map. */
function fakeStorage() {
  const items = new Map();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), items };
}

/** A controller on a scripted engine using the memory at `url`; returns it, its engine, memory and events. */
function player(url, { options = {}, answer = firstMove, fen = START, storage = fakeStorage(), depths = new Map(), answerMs, engine = new ScriptedEngine(answer) } = {}) {
  const memory = url ? new SharedMemory(url, { engine: ENGINE, storage, depths, budget: new SubmitBudget(), answerMs }) : null;
  const controller = new GameController({ rules, createEngine: () => engine, options: { player: "black", ...LEVEL8, ...options }, memory, thinkMs: () => 0 });
  const events = [];
  for (const type of ["move", "memory", "thinking", "error", "hint"]) controller.addEventListener(type, (event) => events.push({ type, ...event.detail }));
  controller.setGame(new rules.Game(fen));
  return { controller, engine, memory, events, storage };
}

const until = async (check, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !check()) await sleep(5);
  return check();
};

/** A verified entry for the start position, as the service sends it. */
const STORED = { fen: START, move: "g1f3", san: "Nf3", depth: 22, score: { cp: 20 }, pv: ["g1f3", "d7d5", "d2d4"], nodes: 9_000_000, engine: ENGINE, confirmations: 3, verified: true };

describe("shared memory in play", () => {
  test("a stored move deep enough is played without a search, and the panel says where it came from", async () => {
    const mem = await fakeMemory({ lookup: () => ({ status: 200, body: STORED }) });
    const { controller, engine, events } = player(mem.url);
    assert.ok(await until(() => controller.game.ply() === 1), "the engine moved");
    assert.equal(controller.game.historyUci()[0], "g1f3");
    assert.equal(engine.requests.length, 0, "no search");
    const hit = events.find((e) => e.type === "memory");
    assert.deepEqual({ state: hit.state, san: hit.san, depth: hit.depth, players: hit.players }, { state: "hit", san: "Nf3", depth: 22, players: 3 });
    assert.equal(hit.text, "From the shared memory: Nf3, depth 22, 3 players");
    const shown = events.find((e) => e.type === "thinking");
    assert.equal(shown.text, hit.text, "the thinking panel's line");
    assert.deepEqual([shown.depth, shown.pv], [22, ["Nf3", "d5", "d4"]]);
    const [lookup] = mem.lookups();
    assert.deepEqual(lookup.query, { fen: START, depth: String(typicalDepth(300)) });
    assert.equal(mem.submissions().length, 0, "a stored move is not sent back");
    assert.equal(controller.memory.offline, false);
    controller.dispose();
  });

  test("a miss is searched and the result submitted in the background, with the service's fields", async () => {
    const mem = await fakeMemory();
    const storage = fakeStorage();
    const answer = () => result({ best: "e2e4", bestSan: "e4", score: { cp: 31 }, depth: 11, nodes: 123_456, pvUci: ["e2e4", "e7e5", "g1f3"] });
    const { controller, engine } = player(mem.url, { answer, storage });
    assert.ok(await until(() => controller.game.ply() === 1 && mem.submissions().length === 1));
    assert.equal(engine.requests.length, 1);
    const { body, path } = mem.submissions()[0];
    assert.equal(path, "/mem/v1/memory");
    assert.deepEqual(Object.keys(body).sort(), ["client", "depth", "engine", "fen", "move", "nodes", "pv", "score"]);
    assert.deepEqual({ ...body, client: "…" }, { fen: START, depth: 11, move: "e2e4", score: { cp: 31 }, pv: ["e2e4", "e7e5", "g1f3"], nodes: 123_456, engine: ENGINE, client: "…" });
    assert.match(body.client, /^[A-Za-z0-9_-]{8,64}$/);
    assert.equal([...storage.items.values()][0], body.client, "the token is kept for this browser");
    controller.dispose();
  });

  test("the next lookup asks for the depth this engine reached at that time", async () => {
    const mem = await fakeMemory();
    const depths = new Map();
    const answer = (r) => result({ ...firstMove(r), depth: r.moves.length < 2 ? 7 : 9 });
    const { controller } = player(mem.url, { options: { player: "none" }, answer, depths });
    assert.ok(await until(() => controller.game.ply() >= 3));
    controller.dispose();
    const asked = mem.lookups().map((r) => Number(r.query.depth));
    assert.deepEqual(asked.slice(0, 3), [typicalDepth(300), 7, 7]);
    const table = new Map();
    for (const depth of [7, 12, 7, 8, 30, 9]) noteDepth(1000, depth, table);
    assert.equal(expectedDepth(1000, table), 9, "the median of the last five: one deep endgame does not raise the bar");
    assert.equal(expectedDepth(2000, table), typicalDepth(2000), "another time has its own record");
  });

  test("an illegal stored move is ignored: the engine searches and plays its own", async () => {
    const mem = await fakeMemory({ lookup: () => ({ status: 200, body: { ...STORED, move: "e2e5", san: "e5", pv: ["e2e5"] } }) });
    const { controller, engine, events } = player(mem.url);
    assert.ok(await until(() => controller.game.ply() === 1));
    assert.equal(engine.requests.length, 1, "searched");
    assert.notEqual(controller.game.historyUci()[0], "e2e5");
    assert.ok(events.some((e) => e.type === "memory" && e.state === "offline" && /not a legal move/.test(e.reason)));
    controller.dispose();
  });

  for (const [name, lookup] of [
    ["HTTP 500", () => ({ status: 500, body: { error: "boom" } })],
    ["garbage", () => ({ status: 200, body: "<html>not json" })],
    ["a malformed entry", () => ({ status: 200, body: { ...STORED, verified: false } })],
    ["a rate limit", () => ({ status: 429, body: { error: "slow down" } })],
  ]) {
    test(`a memory answering ${name} is said offline once and the game goes on`, async () => {
      const mem = await fakeMemory({ lookup });
      const { controller, engine, events } = player(mem.url, { options: { player: "none" } });
      const began = Date.now();
      assert.ok(await until(() => controller.game.ply() >= 1));
      assert.ok(Date.now() - began < 2000, `the first move came ${Date.now() - began} ms after the start`);
      assert.ok(await until(() => controller.game.ply() >= 4));
      controller.dispose();
      assert.ok(engine.requests.length >= controller.game.ply(), "every move was searched");
      const offline = events.filter((e) => e.type === "memory" && e.state === "offline");
      assert.equal(offline.length, 1, "said once");
      assert.ok(offline[0].reason.length > 0);
      assert.equal(mem.lookups().length, 1, "the memory rests after a failure");
      assert.equal(mem.submissions().length, 0, "nothing is sent to a memory that failed");
      assert.equal(events.filter((e) => e.type === "error").length, 0, "no error");
    });
  }

  test("a memory that answers after the lookup's 300 ms: the engine searches each move, and the memory is said slow, not offline", async () => {
    // The start position's stored move comes too late to be played; every other position is a late miss.
    const late = (r) => ({ ...(r.query.fen === START ? { status: 200, body: STORED } : { status: 404, body: { error: "none" } }), delayMs: 450 });
    const mem = await fakeMemory({ lookup: late });
    const { controller, engine, memory, events } = player(mem.url, { options: { player: "none" } });
    const began = Date.now();
    assert.ok(await until(() => controller.game.ply() >= 1));
    assert.ok(Date.now() - began < 2000, `the first move came ${Date.now() - began} ms after the start`);
    assert.ok(await until(() => controller.game.ply() >= 4));
    // The last lookup's late answer has come.
    await sleep(600);
    controller.dispose();
    assert.ok(engine.requests.length >= 4, "every move was searched");
    assert.notEqual(controller.game.historyUci()[0], STORED.move, "the late stored move was not played");
    assert.ok(mem.lookups().length >= 4, `asked before every move (${mem.lookups().length} lookups, ${controller.game.ply()} moves)`);
    const said = events.filter((e) => e.type === "memory");
    assert.deepEqual(said.map((e) => e.state), ["slow"], "said slow once, neither offline nor a hit");
    assert.match(said[0].reason, /^its last 3 answers took up to 0\.[4-9] s, past the 300 ms a lookup may wait$/);
    assert.equal(memory.offline, false);
    assert.equal(memory.slow, true);
    assert.ok(mem.submissions().length >= 1, "its searches are submitted");
  });

  test("a slow memory that answers in time again is said back, and its stored move is played", async () => {
    let delayMs = 450;
    const mem = await fakeMemory({ lookup: (r) => ({ ...(r.query.fen === START ? { status: 200, body: STORED } : { status: 404, body: { error: "none" } }), delayMs }) });
    const { controller, memory, events } = player(mem.url, { options: { player: "none" } });
    assert.ok(await until(() => events.some((e) => e.type === "memory" && e.state === "slow")), "said slow");
    assert.ok(controller.game.ply() >= 3, `after three late lookups (${controller.game.ply()} moves)`);
    delayMs = 0;
    assert.ok(await until(() => events.some((e) => e.type === "memory" && e.state === "online")), "said back");
    assert.equal(memory.slow, false);
    // Back at the start, the stored move now comes in time.
    controller.setGame(new rules.Game(START));
    assert.ok(await until(() => controller.game.ply() >= 1));
    controller.dispose();
    assert.equal(controller.game.historyUci()[0], STORED.move, "the stored move was played");
    const states = events.filter((e) => e.type === "memory").map((e) => e.state);
    assert.deepEqual(states.slice(0, 2), ["slow", "online"], states.join());
    assert.ok(states.includes("hit"), states.join());
    assert.equal(events.filter((e) => e.type === "error").length, 0, "no error");
  });

  test("a slow memory's stored move that comes early in a long search stops the search and is played", async () => {
    const mem = await fakeMemory({ lookup: (r) => ({ ...(r.query.fen === START ? { status: 200, body: STORED } : { status: 404, body: { error: "none" } }), delayMs: 450 }) });
    const engine = new PatientEngine(firstMove);
    const { controller, memory, events } = player(mem.url, { options: { player: "none" }, engine, fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" });
    assert.ok(await until(() => memory.slow), "said slow after three late lookups");
    // Now a four-second search from the start, whose stored move arrives after 450 ms.
    engine.holdMs = 4000;
    controller.options.think = "4000";
    const began = Date.now();
    controller.setGame(new rules.Game(START));
    assert.ok(await until(() => controller.game.ply() >= 1, 3000), "a move came well before the search's four seconds");
    const took = Date.now() - began;
    // Counted before the player is disposed of, which stops the next search.
    const stops = engine.stops;
    controller.dispose();
    assert.equal(controller.game.historyUci()[0], STORED.move, "the stored move was played");
    assert.ok(took < 2000, `played ${took} ms after the search began`);
    assert.equal(stops, 1, "the search was stopped for it");
    assert.ok(events.some((e) => e.type === "memory" && e.state === "hit"), "the hit was said");
    assert.equal(events.filter((e) => e.type === "error").length, 0, "a stopped search is no failure");
  });

  test("a slow memory's stored move that comes after half the search is left alone", async () => {
    let delayMs = 450;
    const mem = await fakeMemory({ lookup: (r) => ({ ...(r.query.fen === START ? { status: 200, body: STORED } : { status: 404, body: { error: "none" } }), delayMs }) });
    const engine = new PatientEngine(firstMove);
    const { controller, memory, events } = player(mem.url, { options: { player: "none" }, engine, fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" });
    assert.ok(await until(() => memory.slow), "said slow after three late lookups");
    engine.holdMs = 1500;
    controller.options.think = "1500";
    delayMs = 1000;
    controller.setGame(new rules.Game(START));
    assert.ok(await until(() => controller.game.ply() >= 1, 4000));
    const stops = engine.stops;
    controller.dispose();
    assert.equal(controller.game.historyUci()[0], firstMove({ fen: START, moves: [] }).best, "the engine's own move");
    assert.equal(stops, 0, "the search ran to its end");
    assert.ok(!events.some((e) => e.type === "memory" && e.state === "hit"), "no hit");
  });

  test("a lookup that misses its time now and then does not say the memory slow", async () => {
    let n = 0;
    const mem = await fakeMemory({ lookup: () => ({ status: 404, body: { error: "none" }, delayMs: n++ % 2 ? 0 : 450 }) });
    const { controller, memory, events } = player(mem.url, { options: { player: "none" } });
    assert.ok(await until(() => mem.lookups().length >= 7, 10_000), `${mem.lookups().length} lookups`);
    await sleep(500);
    controller.dispose();
    assert.deepEqual(events.filter((e) => e.type === "memory"), [], "nothing said");
    assert.equal(memory.slow, false);
  });

  test("a memory that never answers a lookup is said offline once its request goes unanswered, and the game goes on", async () => {
    const mem = await fakeMemory({ lookup: () => null });
    const { controller, engine, events } = player(mem.url, { options: { player: "none" }, answerMs: 800 });
    const began = Date.now();
    assert.ok(await until(() => controller.game.ply() >= 1));
    assert.ok(Date.now() - began < 2000, `the first move came ${Date.now() - began} ms after the start`);
    assert.ok(await until(() => events.some((e) => e.type === "memory")), "said offline");
    const asked = mem.lookups().length;
    assert.ok(await until(() => controller.game.ply() >= 8));
    controller.dispose();
    assert.ok(engine.requests.length >= controller.game.ply(), "every move was searched");
    const offline = events.filter((e) => e.type === "memory" && e.state === "offline");
    assert.equal(offline.length, 1, "said once");
    assert.match(offline[0].reason, /^no answer within 800 ms$/);
    assert.ok(mem.lookups().length <= asked + 2, `the memory rests after the failure (${asked} lookups then, ${mem.lookups().length} at the end)`);
    assert.equal(events.filter((e) => e.type === "error").length, 0, "no error");
  });

  test("a player disposed of while a lookup is unanswered hears nothing of it afterwards", async () => {
    const mem = await fakeMemory({ lookup: () => null });
    const { controller, memory, events } = player(mem.url, { options: { player: "none" }, answerMs: 400 });
    assert.ok(await until(() => mem.lookups().length >= 1), "a lookup was asked");
    controller.dispose();
    assert.ok(await until(() => memory.offline, 3000), "the memory itself still notes the unanswered request");
    assert.equal(events.filter((e) => e.type === "memory").length, 0, "no memory event after dispose");
  });

  test("a memory that refuses connections is said offline once and the game goes on", async () => {
    const mem = await fakeMemory();
    const server = servers.pop();
    await new Promise((resolve) => (server.closeAllConnections(), server.close(resolve)));
    const { controller, engine, events } = player(mem.url, { options: { player: "none" } });
    assert.ok(await until(() => controller.game.ply() >= 3));
    controller.dispose();
    assert.ok(engine.requests.length >= controller.game.ply(), "every move was searched");
    const offline = events.filter((e) => e.type === "memory" && e.state === "offline");
    assert.equal(offline.length, 1);
    assert.match(offline[0].reason, /cannot be reached/);
  });

  test("a memory serving another engine is neither used nor sent to", async () => {
    const mem = await fakeMemory({ engine: "Homeostat 0.0.9 bench 1", lookup: () => ({ status: 200, body: STORED }) });
    const { controller, engine, events } = player(mem.url, { options: { player: "none" } });
    assert.ok(await until(() => controller.game.ply() >= 3));
    controller.dispose();
    assert.ok(engine.requests.length >= controller.game.ply(), "every move was searched");
    assert.deepEqual([mem.lookups().length, mem.submissions().length], [0, 0]);
    const offline = events.filter((e) => e.type === "memory" && e.state === "offline");
    assert.equal(offline.length, 1);
    assert.match(offline[0].reason, /serves Homeostat 0\.0\.9 bench 1, not this player's Homeostat 0\.1\.0 bench 12345/);
  });

  test("a submission sent before an outage and answered after it does not bring the memory back", async () => {
    let clock = 1_000;
    let down = true;
    let answerSubmission;
    const submissionAnswered = new Promise((resolve) => (answerSubmission = resolve));
    const fetcher = async (url, init) => {
      if (url.endsWith("v1/stats")) return new Response(JSON.stringify({ engine: ENGINE }), { status: 200 });
      if (init.method === "POST") {
        await submissionAnswered;
        return new Response(JSON.stringify({ result: "stored" }), { status: 201 });
      }
      if (down) throw new TypeError("connection refused");
      return new Response(JSON.stringify({ error: "none" }), { status: 404 });
    };
    const memory = new SharedMemory("http://memory.test/", { fetch: fetcher, engine: ENGINE, storage: fakeStorage(), depths: new Map(), now: () => clock, budget: new SubmitBudget() });
    const statuses = [];
    memory.onstatus = (status) => statuses.push(status.offline);
    const submitted = memory.submit({ fen: START, depth: 9, move: "e2e4", score: { cp: 10 }, pv: ["e2e4"], nodes: 1000 });
    await until(() => memory.accepted !== null);
    await sleep(5);
    clock += 10;
    assert.equal(await memory.lookup(START, 9), null, "the memory stopped: the lookup fails");
    assert.equal(memory.offline, true);
    clock += 10;
    answerSubmission();
    assert.equal(await submitted, 201, "the earlier submission is answered late");
    assert.equal(memory.offline, true, "and the memory is still said offline");
    // After its rest, a lookup the memory answers brings it back.
    clock += 60_000;
    down = false;
    assert.equal(await memory.lookup(START, 9), null, "a miss");
    assert.equal(memory.offline, false);
    assert.deepEqual(statuses, [true, false]);
  });

  test("a refused submission is the memory working, not an outage", async () => {
    const mem = await fakeMemory({ submit: () => ({ status: 422, body: { error: "refuted" } }) });
    const { controller, events } = player(mem.url, { options: { player: "none" } });
    assert.ok(await until(() => controller.game.ply() >= 3 && mem.submissions().length >= 2));
    controller.dispose();
    assert.ok(!events.some((e) => e.type === "memory" && e.state === "offline"));
    assert.ok(mem.lookups().length >= 3, "lookups go on");
  });

  test("submissions stay within the service's 30 a minute, and stop for a minute after a 429", async () => {
    let status = 201;
    const mem = await fakeMemory({ submit: () => ({ status, body: { result: "stored" } }) });
    let clock = 1_000_000;
    const memory = new SharedMemory(mem.url, { engine: ENGINE, storage: fakeStorage(), now: () => clock, budget: new SubmitBudget() });
    const found = { fen: START, depth: 12, move: "e2e4", score: { cp: 20 }, pv: ["e2e4"], nodes: 50_000 };
    const sent = [];
    for (let i = 0; i < 40; i++) sent.push(await memory.submit(found));
    assert.equal(mem.submissions().length, 30, "a burst of 40 sends 30");
    assert.deepEqual(sent.slice(30), Array(10).fill(null));
    clock += 10_000;
    for (let i = 0; i < 10; i++) await memory.submit(found);
    assert.equal(mem.submissions().length, 35, "ten seconds refill five");
    clock += 60_000;
    status = 429;
    assert.equal(await memory.submit(found), 429);
    clock += 59_000;
    assert.equal(await memory.submit(found), null, "paused for a minute after a 429");
    status = 201;
    clock += 3_000;
    assert.equal(await memory.submit(found), 201, "and sends again after it");
    assert.equal(memory.offline, false, "a rate limit is not an outage");
  });

  test("levels 1 to 7 neither ask nor submit; a hint, analysis and level 8 do", async () => {
    const mem = await fakeMemory();
    for (let level = 1; level <= 7; level++) {
      const { controller } = player(mem.url, { options: { player: "none", level, think: "level" } });
      assert.ok(await until(() => controller.game.ply() >= 2));
      controller.dispose();
    }
    await sleep(50);
    assert.equal(mem.requests.length, 0, "no request at all from the weaker levels");
    const human = player(mem.url, { options: { player: "white", level: 3 } });
    human.controller.hint();
    assert.ok(await until(() => human.events.some((e) => e.type === "hint")));
    assert.ok(await until(() => mem.submissions().length === 1));
    assert.equal(mem.lookups().length, 1, "the hint is a full-strength search");
    human.controller.dispose();
    const both = player(mem.url, { options: { player: "both", analysis: true, level: 2 } });
    assert.ok(await until(() => mem.lookups().length === 2 && mem.submissions().length === 2), "analysis asks and submits");
    both.controller.dispose();
  });

  test("a player without the attribute makes no request", async () => {
    const { controller, engine } = player(null, { options: { player: "none" } });
    assert.ok(await until(() => controller.game.ply() >= 2));
    controller.dispose();
    assert.ok(engine.requests.length >= 2);
    assert.equal(controller.memory, null);
  });
});

describe("the memory attribute", () => {
  const page = "https://blog.example/posts/chess.html";
  test("takes an http or https folder and always ends it with a slash", () => {
    assert.deepEqual(readMemoryUrl("https://example.org/memory/", page), { value: "https://example.org/memory/" });
    assert.deepEqual(readMemoryUrl("https://example.org/memory", page), { value: "https://example.org/memory/" });
    assert.deepEqual(readMemoryUrl("/memory/", page), { value: "https://blog.example/memory/" });
    assert.deepEqual(readMemoryUrl("http://127.0.0.1:8001", page), { value: "http://127.0.0.1:8001/" });
  });
  test("bad addresses say what is wrong", () => {
    assert.match(readMemoryUrl("ftp://example.org/", page).error, /^memory="ftp:\/\/example.org\/": use an http or https address/);
    assert.match(readMemoryUrl("https://u:p@example.org/", page).error, /no user name or password/);
    assert.match(readMemoryUrl("https://example.org/m/?x=1", page).error, /without \? or #/);
    assert.match(readMemoryUrl("http://example.org/m/", page).error, /mixed content/);
    assert.match(readMemoryUrl("https://[bad", page).error, /not a URL/);
  });
});
