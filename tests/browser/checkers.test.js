// <homeostat-checkers> end to end in Chromium, Firefox and WebKit: moves made by clicking squares as a person does
// (a compulsory capture enforced, a triple capture square by square, a crowning that ends the move), keyboard play,
// the engine moving first when the person plays White and answering when the person plays Black, a whole
// engine-against-engine game to its result, bad input shown in the player, and the pages loading only their own
// wasm module.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

const FIXTURES_DIR = fileURLToPath(new URL("./fixtures/", import.meta.url));
const WASM = path.join(WWW_DIR, "pkg-checkers", "homeostat_checkers_web_bg.wasm");

/** Runs in the page: what the tests read from the player. */
function look() {
  const el = document.querySelector("homeostat-checkers");
  const root = el.shadowRoot;
  const text = (field) => root.querySelector(`[data-field="${field}"]`).textContent;
  const view = el.board?.view;
  return {
    state: el.dataset.state,
    fen: el.fen,
    ply: el.game?.ply() ?? 0,
    moves: el.game?.moves() ?? [],
    turn: el.game?.turn(),
    board: el.game?.board() ?? [],
    selected: view?.selected ?? null,
    partial: view?.partial ?? [],
    targets: view?.targets ?? [],
    mustCapture: view?.mustCapture ?? [],
    status: text("status"),
    hint: text("hint"),
    error: root.querySelector(".error").hidden ? null : text("error"),
    mode: text("mode"),
    line: text("line"),
    events: window.__checkers,
    playerErrors: window.__playerErrors,
  };
}

/** Runs in the page: the viewport point at the centre of a square. */
function squarePoint(square) {
  const el = document.querySelector("homeostat-checkers");
  el.scrollIntoView({ block: "center" });
  const box = el.shadowRoot.querySelector("canvas").getBoundingClientRect();
  const { x, y } = el.board.squareCenter(square);
  return { x: box.left + x, y: box.top + y };
}

for (const engine of enginesUnderTest()) {
  describe(`checkers in ${engine}`, () => {
    let server;
    let fixtures;
    let broken;
    let noRules;
    let driver;

    /** Opens the fixture page with `attributes` on the player; waits until it is ready. */
    const open = async (attributes) => {
      await driver.open(`${fixtures.origin}/checkers.html?${new URLSearchParams(attributes)}`);
      await driver.waitFor(() => document.querySelector("homeostat-checkers")?.dataset.state === "ready", { timeout: 20_000 });
      return driver.evaluate(look);
    };
    const read = () => driver.evaluate(look);
    /** Clicks the centre of each square in turn, as a person does. */
    const clickSquares = async (...squares) => {
      for (const square of squares) await driver.mouseClick(await driver.evaluate(squarePoint, square));
    };
    const waitPly = (ply, timeout = 15_000) =>
      driver.waitFor((n) => (document.querySelector("homeostat-checkers").game?.ply() ?? 0) >= n, { timeout }, ply);

    before(
      async () => {
        assert.ok(existsSync(WASM), `${WASM} is missing: run \`make wasm\` first`);
        server = await startServer();
        fixtures = await startServer({ mounts: { "/": FIXTURES_DIR, "/lib/": WWW_DIR } });
        broken = await startServer({ mounts: { "/": FIXTURES_DIR, "/lib/": WWW_DIR }, missing: ["/lib/checkers/worker.js"] });
        noRules = await startServer({ mounts: { "/": FIXTURES_DIR, "/lib/": WWW_DIR }, missing: ["/lib/pkg-checkers/homeostat_checkers_web_bg.wasm"] });
        driver = await launch(engine);
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
      await Promise.all([server, fixtures, broken, noRules].map((s) => s?.close()));
    });

    test("the plain tag: the person plays Black, moves first, and the engine answers at level 4", { timeout: 30_000 }, async () => {
      const start = await open({});
      assert.equal(start.status, "Your move (Black)");
      assert.equal(start.mode, "Engine idle");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-checkers").orientation), "black");
      await clickSquares(11, 15);
      await waitPly(2);
      const shown = await read();
      assert.deepEqual(shown.events.moves.map((m) => [m.by, m.color]), [["person", "b"], ["engine", "w"]]);
      assert.equal(shown.status, "Your move (Black)");
      assert.deepEqual(await driver.pageErrors(), []);
      assert.deepEqual(shown.playerErrors, []);
    });

    test("a compulsory capture is enforced: another piece is refused and the capturing piece is marked", { timeout: 30_000 }, async () => {
      // Black's man on 15 must take 19; the man on 9 could step to 13 or 14 if captures were optional.
      const start = await open({ fen: "B:W19,32:B9,15", player: "both" });
      assert.equal(start.status, "Black to move");
      await clickSquares(9);
      let shown = await read();
      assert.equal(shown.selected, null, "the man on 9 is not picked up");
      assert.deepEqual(shown.mustCapture, [15]);
      assert.match(shown.hint, /capture is compulsory.*15 must capture/i);
      await clickSquares(14);
      assert.equal((await read()).ply, 0, "9-14 is not played");
      await clickSquares(15);
      shown = await read();
      assert.equal(shown.selected, 15);
      assert.deepEqual(shown.mustCapture, [], "the marks go once the right piece is picked");
      assert.deepEqual(shown.targets, [24]);
      await clickSquares(24);
      shown = await read();
      assert.deepEqual(shown.moves, ["15x24"]);
      assert.equal(shown.board[18], "", "the white man on 19 is gone");
      assert.equal(shown.board[23], "b");
      assert.equal(shown.status, "White to move");
      assert.deepEqual(shown.events.moves.map((m) => [m.move, m.by, m.color]), [["15x24", "person", "b"]]);
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-checkers").shadowRoot.querySelector("[data-field=material]").textContent), "Black: 2 men · White: 1 man");
      assert.deepEqual(await driver.pageErrors(), []);
      assert.deepEqual(shown.playerErrors, []);
    });

    test("a triple capture made by clicking each landing square; the capturing piece stays selected", { timeout: 30_000 }, async () => {
      await open({ fen: "B:W6,15,24,32:B1", player: "both" });
      await clickSquares(1, 10);
      let shown = await read();
      assert.equal(shown.ply, 0, "the capture is not over after one jump");
      assert.equal(shown.selected, 1);
      assert.deepEqual(shown.partial, [10]);
      assert.deepEqual(shown.targets, [19]);
      // A square off the capture's route is refused, and the capture is still under way.
      await clickSquares(14);
      shown = await read();
      assert.deepEqual(shown.partial, [10]);
      assert.match(shown.hint, /finish the capture: click 19/i);
      await clickSquares(19);
      assert.deepEqual((await read()).partial, [10, 19]);
      await clickSquares(28);
      shown = await read();
      assert.deepEqual(shown.moves, ["1x10x19x28"]);
      assert.deepEqual([shown.board[5], shown.board[14], shown.board[23]], ["", "", ""], "all three white men are taken");
      assert.equal(shown.board[27], "b");
      assert.equal(shown.selected, null);
      assert.deepEqual(shown.events.moves[0].captured, [6, 15, 24]);
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("a man that captures onto the far row is crowned and its move ends there", { timeout: 30_000 }, async () => {
      // As a king on 31 it could go on over 27, but crowning ends the move.
      await open({ fen: "B:W26,27:B22", player: "both" });
      await clickSquares(22, 31);
      const shown = await read();
      assert.deepEqual(shown.moves, ["22x31"]);
      assert.equal(shown.board[30], "B", "a black king stands on 31");
      assert.equal(shown.board[26], "w", "the man on 27 is still there");
      assert.equal(shown.turn, "w");
      assert.equal(shown.events.moves[0].crowned, true);
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("keyboard play: arrow keys and Enter pick a piece and its landing square", { timeout: 30_000 }, async () => {
      await open({ player: "both" });
      await driver.evaluate(() => document.querySelector("homeostat-checkers").shadowRoot.querySelector("canvas").focus());
      // The cursor starts on 22 (White at the bottom); 11 is three rows up and three columns right.
      for (const key of ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowUp", "ArrowRight", "ArrowRight", "ArrowRight", "Enter"]) await driver.press(key);
      let shown = await read();
      assert.equal(shown.selected, 11);
      assert.deepEqual(shown.targets, [15, 16]);
      for (const key of ["ArrowDown", "ArrowLeft", "Enter"]) await driver.press(key);
      shown = await read();
      assert.deepEqual(shown.moves, ["11-15"]);
      const spoken = await driver.waitFor(() => {
        const text = document.querySelector("homeostat-checkers").shadowRoot.querySelector("[data-field=announce]").textContent;
        return text.includes("11-15") && text;
      });
      assert.equal(spoken, "Black played 11-15");
    });

    test('player="white": the engine plays Black and makes the first move', { timeout: 30_000 }, async () => {
      const start = await open({ player: "white", level: "2", "think-min": "10ms" });
      // Black moves first in checkers; a fast engine may already have answered by the time the page is read.
      assert.ok(start.turn === "b" || start.events.moves.length === 1, `turn ${start.turn} before any move`);
      await waitPly(1);
      const shown = await read();
      assert.equal(shown.events.moves.length, 1);
      assert.equal(shown.events.moves[0].by, "engine");
      assert.equal(shown.events.moves[0].color, "b");
      assert.equal(shown.status, "Your move (White)");
      assert.equal(shown.mode, "Engine idle");
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test('player="black": the person moves first and gets the engine\'s reply, its thinking shown', { timeout: 30_000 }, async () => {
      const start = await open({ player: "black", level: "5", "think-min": "400ms" });
      assert.equal(start.status, "Your move (Black)");
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await read()).ply, 0, "the engine does not move for the person");
      // Every line the panel shows while the engine thinks, kept by the page itself: polling from here can miss a short
      // search on a loaded machine.
      await driver.evaluate(() => {
        const el = document.querySelector("homeostat-checkers");
        const field = el.shadowRoot.querySelector("[data-field=line]");
        window.__linesWhileThinking = [];
        new MutationObserver(() => el.thinking && window.__linesWhileThinking.push(field.textContent)).observe(field, { childList: true, characterData: true, subtree: true });
      });
      await clickSquares(11, 15);
      await waitPly(2);
      const lines = await driver.evaluate(() => window.__linesWhileThinking);
      const considering = /^Considering \S+ \(\d+\) of \d+ moves, \d+ replies, [\d,]+ positions: \S+ \([+-]\d+\.\d\d\)$/;
      assert.ok(lines.some((line) => considering.test(line)), JSON.stringify(lines.slice(0, 5)));
      const shown = await read();
      assert.equal(shown.moves[0], "11-15");
      assert.deepEqual(shown.events.moves.map((m) => m.by), ["person", "engine"]);
      assert.ok(shown.events.thinking > 0, "thinking events fired");
      assert.equal(shown.status, "Your move (Black)");
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test('player="none": the engine plays a whole game against itself to a result', { timeout: 90_000 }, async () => {
      await open({ player: "none", level: "1", "think-min": "10ms" });
      const over = await driver.waitFor(() => window.__checkers.gameover, { timeout: 80_000, interval: 200 });
      assert.match(over.result, /^(1-0|0-1|1\/2-1\/2)$/);
      assert.ok(["no-moves", "repetition", "forty-moves"].includes(over.reason), over.reason);
      const shown = await read();
      assert.equal(shown.status, over.text);
      const status = await driver.evaluate(() => document.querySelector("homeostat-checkers").status);
      assert.deepEqual([status.over, status.result, status.reason], [true, over.result, over.reason]);
      assert.ok(shown.ply >= 10, `a whole game, not ${shown.ply} plies`);
      assert.equal(shown.events.moves.length, shown.ply);
      assert.match(over.pdn, new RegExp(`${over.result.replace(/[/]/g, "\\/")}$`));
      // Nothing moves after the end.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal((await read()).ply, shown.ply);
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("bad input is shown in the player and the game is kept", { timeout: 30_000 }, async () => {
      await open({ player: "both", fen: "B:W19,32:B9,15" });
      const before = await read();
      // The error event stays on the element: the page's window.onerror does not run for a refused move.
      const refused = await driver.evaluate(() => {
        let onerror = 0;
        window.onerror = () => void onerror++;
        const played = document.querySelector("homeostat-checkers").move("9-13");
        window.onerror = null;
        return { played, onerror };
      });
      assert.deepEqual(refused, { played: false, onerror: 0 });
      let shown = await read();
      assert.match(shown.error, /9-13 is not playable/);
      assert.equal(shown.fen, before.fen);
      await driver.evaluate(() => document.querySelector("homeostat-checkers").setAttribute("fen", "B:W33:B1"));
      shown = await read();
      assert.match(shown.error, /Could not set up the position: bad FEN/);
      assert.equal(shown.fen, before.fen);
      await driver.evaluate(() => document.querySelector("homeostat-checkers").setAttribute("level", "11"));
      assert.match((await read()).error, /level="11"/);
      assert.equal(shown.playerErrors.length, 2, "an error event for each");
      // PDN in and out, undo and redo.
      await driver.evaluate(() => document.querySelector("homeostat-checkers").setAttribute("pdn", "1. 11-15 23-19 2. 8-11 22-17 *"));
      shown = await read();
      assert.deepEqual(shown.moves, ["11-15", "23-19", "8-11", "22-17"]);
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-checkers").undo()), true);
      assert.deepEqual((await read()).moves, ["11-15", "23-19", "8-11"]);
      await driver.evaluate(() => document.querySelector("homeostat-checkers").redo());
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-checkers").pdn), "1. 11-15 23-19 2. 8-11 22-17 *");
      // The game record box: a FEN or a game pasted in and loaded; a bad one is refused and the game kept.
      const load = (text) =>
        driver.evaluate((text) => {
          const root = document.querySelector("homeostat-checkers").shadowRoot;
          root.querySelector(".record").open = true;
          root.querySelector("[data-field=pdn]").value = text;
          root.querySelector("[data-action=load]").click();
        }, text);
      await load("B:W18:B14");
      shown = await read();
      assert.equal(shown.fen, "B:W18:B14");
      await load("1. 11-15 22-18 2. 15x22 9-14");
      shown = await read();
      assert.match(shown.error, /Could not load the game: bad PDN: move 4 \(9-14\)/);
      assert.equal(shown.fen, "B:W18:B14");
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("orientation, readonly, show-thinking and theme each do what they say", { timeout: 30_000 }, async () => {
      const geometry = () => {
        const el = document.querySelector("homeostat-checkers");
        return { one: el.board.squareCenter(1).y, thirtyTwo: el.board.squareCenter(32).y, orientation: el.orientation };
      };
      await open({ player: "white", level: "1", "think-min": "10ms" });
      let g = await driver.evaluate(geometry);
      assert.equal(g.orientation, "white", "the person's side is at the bottom");
      assert.ok(g.one < g.thirtyTwo, "square 1 at the top");
      await open({ player: "both", orientation: "black", "show-thinking": "off", theme: "dark", readonly: "" });
      g = await driver.evaluate(geometry);
      assert.equal(g.orientation, "black");
      assert.ok(g.one > g.thirtyTwo, "square 1 at the bottom");
      const looks = () => {
        const root = document.querySelector("homeostat-checkers").shadowRoot;
        const shown = (selector) => getComputedStyle(root.querySelector(selector)).display !== "none";
        return { thinking: shown(".thinking"), controls: shown(".controls-card"), background: getComputedStyle(root.querySelector(".card")).backgroundColor };
      };
      let seen = await driver.evaluate(looks);
      assert.equal(seen.thinking, false);
      assert.equal(seen.controls, false, "read-only: no game controls");
      assert.equal(seen.background, "rgb(35, 33, 30)", "the dark theme");
      await clickSquares(11, 15);
      assert.equal((await read()).ply, 0, "read-only: clicks play nothing");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-checkers").move("11-15")), false);
      await driver.evaluate(() => {
        const el = document.querySelector("homeostat-checkers");
        el.removeAttribute("readonly");
        el.setAttribute("show-thinking", "on");
        el.setAttribute("theme", "light");
        el.flip();
      });
      seen = await driver.evaluate(looks);
      assert.deepEqual([seen.thinking, seen.controls, seen.background], [true, true, "rgb(255, 255, 255)"]);
      assert.equal((await driver.evaluate(geometry)).orientation, "white", "flip() turns the board");
      await clickSquares(11, 15);
      assert.deepEqual((await read()).moves, ["11-15"]);
    });

    test("a missing engine worker is shown in the player, and two people can play on", { timeout: 30_000 }, async () => {
      driver.expectErrors(/worker|engine|checkers/i);
      await driver.open(`${broken.origin}/checkers.html?player=white&level=1`);
      const shown = await driver.waitFor(() => {
        const root = document.querySelector("homeostat-checkers")?.shadowRoot;
        return root && !root.querySelector(".error").hidden && root.querySelector("[data-field=error]").textContent;
      }, { timeout: 20_000 });
      assert.match(shown, /^The engine stopped: .*checkers engine/);
      let state = await read();
      assert.equal(state.status, "Engine unavailable");
      assert.equal(state.mode, "Engine unavailable");
      assert.ok(state.playerErrors.length >= 1, "the error event fires too");
      await driver.evaluate(() => document.querySelector("homeostat-checkers").setAttribute("player", "both"));
      await clickSquares(11, 15);
      state = await read();
      assert.deepEqual(state.moves, ["11-15"]);
      assert.equal(state.status, "White to move");
    });

    test("a missing rules module is shown in the player", { timeout: 30_000 }, async () => {
      driver.expectErrors(/wasm|checkers|404|WebAssembly|fetch/i);
      await driver.open(`${noRules.origin}/checkers.html`);
      const state = await driver.waitFor(() => document.querySelector("homeostat-checkers")?.dataset.state === "error" && "error", { timeout: 20_000 });
      assert.equal(state, "error");
      const shown = await read();
      assert.equal(shown.status, "Checkers unavailable");
      assert.match(shown.error, /^The checkers rules could not load: /);
      assert.equal(shown.playerErrors.length, 1);
    });

    test("a slow rules module: the status says it is loading, then why it waits, then the game starts", { timeout: 40_000 }, async () => {
      const slow = await startServer({ mounts: { "/": FIXTURES_DIR, "/lib/": WWW_DIR }, delays: { "/lib/pkg-checkers/homeostat_checkers_web_bg.wasm": 10_000 } });
      const status = () => document.querySelector("homeostat-checkers")?.shadowRoot?.querySelector("[data-field=status]")?.textContent;
      try {
        await driver.open(`${slow.origin}/checkers.html`);
        assert.equal(await driver.waitFor(status), "Loading…");
        const told = await driver.waitFor(() => {
          const text = document.querySelector("homeostat-checkers").shadowRoot.querySelector("[data-field=status]").textContent;
          return text.startsWith("Still loading") && text;
        }, { timeout: 10_000 });
        assert.equal(told, "Still loading the checkers rules (pkg-checkers/homeostat_checkers_web_bg.wasm): the network is slow.");
        await driver.waitFor(() => document.querySelector("homeostat-checkers").dataset.state === "ready", { timeout: 20_000 });
        assert.equal(await driver.evaluate(status), "Your move (Black)");
        assert.deepEqual(await driver.pageErrors(), []);
      } finally {
        await slow.close();
      }
    });

    test("each page loads only its own wasm module; the chess page links to checkers", { timeout: 30_000 }, async () => {
      const wasmOf = () => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.endsWith(".wasm"));
      await driver.open(`${server.origin}/checkers.html`);
      await driver.waitFor(() => document.querySelector("homeostat-checkers")?.dataset.state === "ready", { timeout: 20_000 });
      assert.deepEqual(await driver.evaluate(wasmOf), ["/pkg-checkers/homeostat_checkers_web_bg.wasm"]);
      assert.equal((await read()).status, "Your move (Black)");
      assert.deepEqual(await driver.pageErrors(), []);
      await driver.open(`${server.origin}/`);
      await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready", { timeout: 20_000 });
      const loaded = await driver.evaluate(wasmOf);
      assert.ok(!loaded.some((p) => p.includes("checkers")), `the chess page loaded ${loaded}`);
      assert.equal(await driver.evaluate(() => document.querySelector('.site-nav a[href="checkers.html"]')?.textContent), "Checkers");
      // Nor does the chess page's service worker cache the checkers files for offline play.
      const build = JSON.parse(readFileSync(path.join(WWW_DIR, "pkg", "build.json"), "utf8"));
      assert.deepEqual(build.files.filter((f) => /checkers/.test(f)), []);
    });
  });
}
