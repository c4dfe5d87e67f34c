// End-to-end tests of the engine worker, its client and the wasm Game class, in each browser.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const WASM = path.join(WWW_DIR, "pkg", "homeostat_web_bg.wasm");

/** The applet's status line. */
const CONSIDERING = /^Considering \S+ \(\d+\) of \d+ moves, \d+ replies, [\d,]+ positions: \S+ \(([+-]?\d+\.\d\d|0\.00|#-?\d+)\)$/;

/** A middlegame with plenty to think about. */
const MIDDLEGAME = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9";

for (const engine of enginesUnderTest()) {
  describe(`engine worker in ${engine}`, () => {
    let server;
    let driver;

    before(
      async () => {
        assert.ok(existsSync(WASM), `${WASM} is missing: run \`make wasm\` first`);
        server = await startServer({ mounts: { "/": WWW_DIR, "/test/": FIXTURES } });
        driver = await launch(engine);
        await driver.open(`${server.origin}/test/engine.html`);
        await driver.waitFor(() => window.fixtureReady === true);
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
      await server?.close();
    });

    test("a search reports progress and returns a legal move", { timeout: 60_000 }, async () => {
      const answer = await driver.evaluate(async (fen) => {
        const client = new EngineClient();
        const events = [];
        const start = performance.now();
        const result = await client.search({ fen, movetimeMs: 1200 }, { onProgress: (e) => events.push(e) });
        const ms = performance.now() - start;
        const { Game } = await loadRules();
        const legal = new Game(fen).legalMoves().map((m) => m.uci);
        client.destroy();
        return { result, ms, legal, roots: events.filter((e) => e.type === "root"), iterations: events.filter((e) => e.type === "iteration") };
      }, MIDDLEGAME);
      // The worker's clock stops the search: not before its time, and not minutes after.
      assert.ok(answer.ms >= 1000 && answer.ms < 20_000, `a 1,200 ms search took ${answer.ms} ms`);
      assert.ok(answer.roots.length >= 1, "no root-move progress event");
      for (const root of answer.roots) assert.match(root.text, CONSIDERING);
      assert.ok(answer.iterations.length >= 1, "no iteration event");
      const last = answer.iterations.at(-1);
      assert.ok(last.depth >= 1 && last.nodes > 0 && Array.isArray(last.pv) && last.pvUci.length >= 1);
      assert.ok(answer.legal.includes(answer.result.best), `best move ${answer.result.best} is not legal`);
      assert.equal(answer.result.book, false);
      assert.ok("cp" in answer.result.score || "mate" in answer.result.score);
    });

    test("moveNow answers within 200 ms with a legal move, and the next search works", { timeout: 60_000 }, async () => {
      const answer = await driver.evaluate(async (fen) => {
        const client = new EngineClient();
        client.preload();
        await new Promise((resolve) => client.addEventListener("ready", resolve, { once: true }));
        let events = 0;
        const long = client.search({ fen, movetimeMs: 60_000 }, { onProgress: () => events++ });
        await new Promise((resolve) => setTimeout(resolve, 800));
        const start = performance.now();
        const now = await client.moveNow();
        const ms = performance.now() - start;
        const fromSearch = await long;
        const next = await client.search({ fen, depth: 3 });
        // Before any progress: the caller's fallback move.
        const early = client.search({ fen, movetimeMs: 60_000, fallbackMove: "a2a3" });
        const fallback = await client.moveNow();
        await early;
        const { Game } = await loadRules();
        const legal = new Game(fen).legalMoves().map((m) => m.uci);
        client.destroy();
        return { ms, now, same: fromSearch.best === now.best, next, fallback, legal, events };
      }, MIDDLEGAME);
      assert.ok(answer.events > 0, "the long search reported nothing");
      assert.ok(answer.ms < 200, `moveNow took ${answer.ms} ms`);
      assert.equal(answer.now.stopped, true);
      assert.ok(answer.legal.includes(answer.now.best), `moveNow gave ${answer.now.best}`);
      assert.ok(answer.same, "the search's promise resolved with the moveNow result");
      assert.ok(answer.legal.includes(answer.next.best), `the next search gave ${answer.next.best}`);
      assert.equal(answer.fallback.best, "a2a3");
    });

    test("malformed messages and requests get error replies, and the worker goes on", { timeout: 60_000 }, async () => {
      const answer = await driver.evaluate(async () => {
        const worker = new Worker("/engine/worker.js", { type: "module" });
        const replies = [];
        const next = () => new Promise((resolve) => worker.addEventListener("message", (e) => resolve(e.data), { once: true }));
        const ask = async (message) => {
          const reply = next();
          worker.postMessage(message);
          return reply;
        };
        replies.push(await next()); // ready
        replies.push(await ask("hello"));
        replies.push(await ask({ type: "bogus" }));
        replies.push(await ask({ type: "search", depth: 2 }));
        replies.push(await ask({ type: "search", id: 1, depth: "deep" }));
        replies.push(await ask({ type: "search", id: 2, depth: 2, colour: "white" }));
        replies.push(await ask({ type: "search", id: 3, fen: "not a fen", depth: 2 }));
        replies.push(await ask({ type: "search", id: 4, moves: ["e2e5"], depth: 2 }));
        replies.push(await ask({ type: "search", id: 5, depth: 2, purpose: "ponder" }));
        const results = [];
        worker.onmessage = (e) => results.push(e.data);
        worker.postMessage({ type: "search", id: 6, depth: 2 });
        while (!results.some((m) => m.type === "result")) await new Promise((r) => setTimeout(r, 20));
        worker.terminate();
        const client = new EngineClient();
        let rejected = null;
        try {
          await client.search({ depth: 2, level: 12 });
        } catch (err) {
          rejected = err.message;
        }
        client.destroy();
        return { replies, result: results.find((m) => m.type === "result"), rejected };
      });
      const [ready, ...errors] = answer.replies;
      assert.equal(ready.type, "ready");
      for (const reply of errors) {
        assert.equal(reply.type, "error", JSON.stringify(reply));
        assert.ok(reply.message.length > 0 && !reply.fatal, JSON.stringify(reply));
      }
      assert.match(errors[0].message, /object/);
      assert.match(errors[1].message, /unknown message type/);
      assert.match(errors[2].message, /id/);
      assert.match(errors[3].message, /bad search request/);
      assert.match(errors[4].message, /colour/);
      assert.match(errors[5].message, /bad fen/);
      assert.match(errors[6].message, /illegal move: e2e5/);
      assert.match(errors[7].message, /purpose must be one of play, hint, analyse/);
      assert.equal(answer.result.id, 6);
      assert.match(answer.result.best, /^[a-h][1-8][a-h][1-8]$/);
      assert.match(answer.rejected, /level/);
    });

    test("a crashed or missing worker fails the search with a message and is restarted", { timeout: 60_000 }, async () => {
      // The browser may log the failed load of the missing worker (Firefox sometimes only after this test).
      driver.expectErrors(/no-such-worker/);
      const answer = await driver.evaluate(async () => {
        const outcome = async (workerUrl) => {
          const client = new EngineClient({ workerUrl });
          const restarts = [];
          client.addEventListener("restart", (e) => restarts.push(e.detail.reason));
          let message = null;
          try {
            await client.search({ depth: 2 });
          } catch (err) {
            message = err.message;
          }
          const busy = client.busy;
          client.destroy();
          return { message, restarts, busy };
        };
        return { crashed: await outcome("/test/crash-worker.js"), missing: await outcome("/test/no-such-worker.js") };
      });
      assert.match(answer.crashed.message, /engine crashed/);
      assert.deepEqual(answer.crashed.restarts, [answer.crashed.message]);
      assert.equal(answer.crashed.busy, false);
      assert.ok(answer.missing.message.length > 0);
      assert.equal(answer.missing.restarts.length, 1);
    });

    test("the Game class refuses bad input with messages and round-trips PGN", async () => {
      const answer = await driver.evaluate(async () => {
        const { Game } = await loadRules();
        // The rules module names openings and knows book moves once the page has installed its book file.
        const beforeBook = { opening: new Game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").openingName(), book: new Game().bookMove(42) ?? null };
        await loadBook();
        const message = (f) => {
          try {
            f();
            return null;
          } catch (err) {
            return { isError: err instanceof Error, message: err.message };
          }
        };
        const game = new Game();
        const illegal = message(() => game.play("e2e5"));
        const badFen = message(() => Game.load("rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"));
        const badCtor = message(() => new Game("nonsense"));
        for (const move of ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"]) game.play(move);
        const pgn = game.pgn({ White: "Tester", Black: "Homeostat" });
        const back = Game.load(pgn);
        const fool = new Game();
        let last = null;
        for (const move of ["f2f3", "e7e5", "g2g4", "d8h4"]) last = fool.play(move);
        return {
          illegal,
          badFen,
          badCtor,
          pgn,
          same: back.historySan().join(" ") === game.historySan().join(" "),
          fen: back.fen() === game.fen(),
          opening: game.openingName(),
          promotions: new Game("8/P6k/8/8/8/8/8/K7 w - - 0 1").legalMovesFrom("a7"),
          board: new Game().board(),
          last,
          check: fool.checkSquare(),
          outcome: fool.outcome(),
          book: new Game().bookMove(42),
          beforeBook,
          undo: game.undo(),
          redo: game.redo()?.uci,
        };
      });
      assert.equal(answer.illegal.isError, true);
      assert.match(answer.illegal.message, /^illegal move: e2e5/);
      assert.equal(answer.badFen.isError, true);
      assert.ok(answer.badFen.message.length > 0);
      assert.ok(answer.badCtor.message.length > 0);
      assert.match(answer.pgn, /\[White "Tester"\]/);
      assert.ok(answer.same && answer.fen, "PGN round trip");
      assert.equal(answer.opening.eco, "B90");
      assert.deepEqual(answer.promotions.map((m) => m.promotion).sort(), ["b", "n", "q", "r"]);
      assert.ok(answer.promotions.every((m) => m.kind === "promotion"));
      assert.equal(answer.board.length, 64);
      assert.equal(answer.board[0], "R");
      assert.equal(answer.board[60], "k");
      assert.equal(answer.board[20], "");
      assert.equal(answer.last.mate, true);
      assert.deepEqual(answer.last.outcome, { result: "0-1", reason: "checkmate", winner: "b", text: "Black wins by checkmate" });
      assert.equal(answer.check, "e1");
      assert.equal(answer.outcome.reason, "checkmate");
      assert.match(answer.book, /^[a-h][1-8][a-h][1-8]$/);
      assert.deepEqual(answer.beforeBook, { opening: null, book: null });
      assert.equal(answer.undo, "a7a6");
      assert.equal(answer.redo, "a7a6");
      assert.deepEqual(await driver.pageErrors(), []);
    });
  });
}
