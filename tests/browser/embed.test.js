// End-to-end tests of embedding <homeostat-chess> on someone else's page, in Chromium, Firefox and WebKit:
// a blog in a sub-directory with two independent players, the same page under a strict Content-Security-Policy,
// the iframe route, keyboard-only play, live attributes, the read-only viewer, and the lazy engine worker.

import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

const BLOG_DIR = fileURLToPath(new URL("./fixtures/site/blog/", import.meta.url));
/** The folder `make dist` packs; tested when present. */
const DIST_DIR = fileURLToPath(new URL("../../target/dist/homeostat/", import.meta.url));
const WASM = path.join(WWW_DIR, "pkg", "homeostat_web_bg.wasm");
/** The policy a careful host might send: nothing inline, nothing from elsewhere, wasm allowed. */
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/** The blog lives in /site/blog/, the player's files in /site/blog/homeostat/. */
const MOUNTS = { "/site/blog/": BLOG_DIR, "/site/blog/homeostat/": WWW_DIR };

/** Runs in the page: a square's centre as an offset from the element's top-left corner. */
function squareOffset(selector, square) {
  const el = document.querySelector(selector);
  const c = el.shadowRoot.querySelector(".board-canvas").getBoundingClientRect();
  const h = el.getBoundingClientRect();
  const size = c.width / 8;
  const white = el.orientation === "white";
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  return { x: c.left - h.left + ((white ? file : 7 - file) + 0.5) * size, y: c.top - h.top + ((white ? 7 - rank : rank) + 0.5) * size };
}

/** Runs in the page: what the tests read from one player. */
function snapshot(selector) {
  const el = document.querySelector(selector);
  const root = el.shadowRoot;
  const shown = (sel) => getComputedStyle(root.querySelector(sel)).display !== "none";
  return {
    fen: el.fen,
    ply: el.game?.ply() ?? 0,
    orientation: el.orientation,
    level: el.settings.level,
    running: el.engineRunning,
    starts: el.engineStarts,
    thinkingShown: shown(".thinking"),
    statsShown: shown(".stats"),
    movesShown: shown(".moves"),
    viewerShown: shown(".viewer"),
    toolbarShown: shown(".toolbar"),
    announce: root.querySelector("[data-field=announce]").textContent,
    boardWidth: root.querySelector(".board-canvas").getBoundingClientRect().width,
    buttonBackground: getComputedStyle(root.querySelector(".tool")).backgroundColor,
  };
}

for (const engine of enginesUnderTest()) {
  describe(`embedding in ${engine}`, () => {
    let server;
    let strictServer;
    let driver;
    const look = (selector) => driver.evaluate(snapshot, selector);
    const clickSquare = async (selector, square) => driver.click(selector, await driver.evaluate(squareOffset, selector, square));
    const openBlog = async (origin) => {
      await driver.open(`${origin}/site/blog/`);
      await driver.waitFor(() => [...document.querySelectorAll("homeostat-chess")].every((el) => el.dataset.state === "ready"));
    };

    before(
      async () => {
        assert.ok(existsSync(WASM), `${WASM} is missing: run \`make wasm\` first`);
        server = await startServer({ mounts: MOUNTS });
        strictServer = await startServer({ mounts: MOUNTS, headers: { "content-security-policy": CSP } });
        driver = await launch(engine);
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
      await server?.close();
      await strictServer?.close();
    });

    test("two players in a sub-directory each play their own game; the worker starts only when needed", async () => {
      await openBlog(server.origin);
      // Black's player: the engine has White and moves at once. White's player waits for the human: no worker yet.
      await driver.waitFor(() => document.querySelector("#b").game.ply() === 1, { timeout: 20_000 });
      let a = await look("#a");
      const b = await look("#b");
      assert.equal(a.fen, START);
      assert.equal(a.running, false, "no worker before the engine is needed");
      assert.equal(a.starts, 0);
      assert.equal(b.running, true);
      assert.equal(b.orientation, "black");
      assert.equal(b.movesShown, false, "show-moves=false hides the move list");
      assert.equal(a.statsShown, false, "show-thinking=line shows only the line");
      assert.ok(Math.abs(b.boardWidth - 300) <= 1, `size=300 gives a 300px board, not ${b.boardWidth}`);
      assert.notEqual(a.buttonBackground, "rgb(255, 0, 0)", "the host's styles stay out");
      await clickSquare("#a", "e2");
      await clickSquare("#a", "e4");
      await driver.waitFor(() => document.querySelector("#a").game.ply() === 2, { timeout: 20_000 });
      a = await look("#a");
      assert.equal(a.running, true);
      assert.equal(a.starts, 1);
      assert.equal(await driver.evaluate(() => document.querySelector("#a").game.historySan()[0]), "e4");
      assert.equal((await look("#b")).ply, 1, "the other game did not move");
      assert.deepEqual(await driver.evaluate(() => window.pageErrors), []);
    });

    test("keyboard only: focus the board, move with arrows and Enter; shortcuts reach only the focused player", async () => {
      await openBlog(server.origin);
      await driver.evaluate(() => {
        document.querySelector("#a").setAttribute("player", "both");
        document.querySelector("#b").setAttribute("player", "both");
        document.activeElement?.blur?.();
      });
      await driver.press("Tab");
      await driver.waitFor(() => {
        const el = document.querySelector("#a");
        return document.activeElement === el && el.shadowRoot.activeElement?.classList.contains("board-canvas");
      });
      // Focus shows the focus square. Firefox under automation has no window focus and sends no focus event;
      // there Enter starts keyboard play, as it does for anyone who clicked the board first.
      if (!(await driver.evaluate(() => document.querySelector("#a").boardState.cursor))) await driver.press("Enter");
      const focused = await driver.evaluate(() => document.querySelector("#a").boardState.cursor);
      assert.equal(focused, "e2", "Tab lands on the first board with the focus square on e2");
      await driver.press("Enter");
      const targets = await driver.evaluate(() => document.querySelector("#a").boardState.targets.map((t) => t.to).sort());
      assert.deepEqual(targets, ["e3", "e4"], "Enter picks up the pawn and shows its moves");
      await driver.press("ArrowUp");
      await driver.press("ArrowUp");
      await driver.press("Enter");
      await driver.waitFor(() => document.querySelector("#a").game.ply() >= 1);
      let a = await look("#a");
      assert.equal(await driver.evaluate(() => document.querySelector("#a").game.historySan()[0]), "e4");
      assert.match(a.announce, /White played e4/);
      // Escape puts a picked-up piece back (the knight on g8, reached from e4).
      for (const key of ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowUp", "ArrowRight", "ArrowRight", "Enter"]) await driver.press(key);
      assert.equal(await driver.evaluate(() => document.querySelector("#a").boardState.selected), "g8");
      await driver.press("Escape");
      assert.equal(await driver.evaluate(() => document.querySelector("#a").boardState.selected), null);
      // "f" flips the focused player only.
      await driver.press("f");
      assert.equal((await look("#a")).orientation, "black");
      assert.equal((await look("#b")).orientation, "black", "the other player did not react");
      // The move box: an illegal move is explained, a legal one played.
      await driver.evaluate(() => document.querySelector("#a").shadowRoot.querySelector(".san-input").focus());
      for (const key of "Ke5") await driver.press(key);
      await driver.press("Enter");
      const error = await driver.evaluate(() => document.querySelector("#a").shadowRoot.querySelector("[data-field=san-error]").textContent);
      assert.ok(error.length > 5, `an error message for an illegal move (got "${error}")`);
      assert.equal((await look("#a")).ply, 1, "the illegal move changed nothing");
      await driver.evaluate(() => (document.querySelector("#a").shadowRoot.querySelector(".san-input").value = ""));
      for (const key of "Nf6") await driver.press(key);
      await driver.press("Enter");
      await driver.waitFor(() => document.querySelector("#a").game.historySan()[1] === "Nf6");
      a = await look("#a");
      assert.match(a.announce, /Black played Nf6/);
    });

    test("attributes changed after load take effect", async () => {
      await openBlog(server.origin);
      await driver.evaluate(() => {
        const a = document.querySelector("#a");
        a.setAttribute("orientation", "black");
        a.setAttribute("level", "6");
        a.setAttribute("show-thinking", "off");
      });
      let a = await look("#a");
      assert.equal(a.orientation, "black");
      assert.equal(a.level, 6);
      assert.equal(a.thinkingShown, false);
      const fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
      await driver.evaluate((fen) => document.querySelector("#a").setAttribute("fen", fen), fen);
      assert.equal((await look("#a")).fen, fen);
      // A bad value is reported and changes nothing.
      const message = await driver.evaluate(() => {
        const a = document.querySelector("#a");
        let text = "";
        a.addEventListener("error", (event) => (text = event.detail.message), { once: true });
        a.setAttribute("fen", "not a fen");
        return text;
      });
      assert.ok(message.length > 3, "a bad fen fires an error with a message");
      assert.equal((await look("#a")).fen, fen);
      // Read-only: a viewer with no engine and no moves by hand.
      await driver.evaluate(() => document.querySelector("#a").setAttribute("readonly", ""));
      a = await look("#a");
      assert.equal(a.viewerShown, true);
      assert.equal(a.toolbarShown, false);
      assert.equal(a.running, false);
      assert.equal(await driver.evaluate(() => document.querySelector("#a").move("Ra8")), false, "no play in a viewer");
      await driver.evaluate(() => document.querySelector("#a").removeAttribute("readonly"));
      assert.equal(await driver.evaluate(() => document.querySelector("#a").move("Ra8#")), true);
      assert.equal(await driver.evaluate(() => document.querySelector("#a").status.result), "1-0");
    });

    test("a read-only PGN viewer steps through the game with buttons and arrow keys", async () => {
      await openBlog(server.origin);
      const pgn = '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0';
      await driver.evaluate((pgn) => {
        const viewer = document.createElement("homeostat-chess");
        viewer.id = "viewer";
        viewer.setAttribute("readonly", "");
        viewer.setAttribute("pgn", pgn);
        document.body.prepend(viewer);
      }, pgn);
      await driver.waitFor(() => document.querySelector("#viewer").dataset.state === "ready");
      const shownPly = () => driver.evaluate(() => document.querySelector("#viewer").viewPly ?? document.querySelector("#viewer").game.ply());
      assert.equal(await shownPly(), 7);
      await driver.evaluate(() => {
        const first = document.querySelector("#viewer").shadowRoot.querySelector('.viewer [data-action="first"]');
        first.click();
        document.querySelector("#viewer").shadowRoot.querySelector(".board-canvas").focus();
      });
      assert.equal(await shownPly(), 0);
      await driver.press("ArrowRight");
      await driver.press("ArrowRight");
      assert.equal(await shownPly(), 2);
      await driver.press("ArrowLeft");
      assert.equal(await shownPly(), 1);
      await driver.press("End");
      assert.equal(await shownPly(), 7);
      assert.equal((await look("#viewer")).running, false, "a viewer never starts the engine");
      assert.equal((await look("#viewer")).starts, 0);
    });

    test("removing a player terminates its worker; putting it back starts a new one when needed", async () => {
      await openBlog(server.origin);
      await driver.waitFor(() => document.querySelector("#b").engineRunning);
      const stopped = await driver.evaluate(() => {
        const b = document.querySelector("#b");
        let stops = 0;
        b.addEventListener("enginestop", () => stops++);
        b.remove();
        window.removed = b;
        return { running: b.engineRunning, stops };
      });
      assert.deepEqual(stopped, { running: false, stops: 1 });
      await driver.evaluate(() => {
        const b = window.removed;
        b.setAttribute("player", "none");
        document.body.append(b);
      });
      await driver.waitFor(() => window.removed.engineRunning && window.removed.engineStarts === 2, { timeout: 20_000 });
    });

    test("under a strict Content-Security-Policy nothing is blocked and both players work", async () => {
      await openBlog(strictServer.origin);
      await driver.waitFor(() => document.querySelector("#b").game.ply() === 1, { timeout: 20_000 });
      await clickSquare("#a", "d2");
      await clickSquare("#a", "d4");
      await driver.waitFor(() => document.querySelector("#a").game.ply() === 2, { timeout: 20_000 });
      const page = await driver.evaluate(() => ({
        violations: window.cspViolations,
        errors: window.pageErrors,
        styled: getComputedStyle(document.querySelector("#a").shadowRoot.querySelector(".layout")).display,
      }));
      assert.deepEqual(page.violations, []);
      assert.deepEqual(page.errors, []);
      assert.equal(page.styled, "grid");
      // WebDriver has no console log; the page's own records above cover WebKit.
      const cspMessages = driver.errors.filter((text) => /Content.Security.Policy|CSP/i.test(text));
      assert.deepEqual(cspMessages, []);
    });

    test("the folder `make dist` packs holds everything the players need", async (t) => {
      if (!existsSync(DIST_DIR)) return t.skip("no target/dist/homeostat: run `make dist` first");
      const distServer = await startServer({ mounts: { "/site/blog/": BLOG_DIR, "/site/blog/homeostat/": DIST_DIR }, headers: { "content-security-policy": CSP } });
      try {
        await openBlog(distServer.origin);
        await driver.waitFor(() => document.querySelector("#b").game.ply() === 1, { timeout: 20_000 });
        assert.equal(await driver.evaluate(() => document.querySelector("#a").move("e4")), true);
        await driver.waitFor(() => document.querySelector("#a").game.ply() === 2, { timeout: 20_000 });
        assert.deepEqual(await driver.evaluate(() => [window.cspViolations, window.pageErrors]), [[], []]);
        await driver.open(`${distServer.origin}/site/blog/homeostat/embed.html?player=black&level=1`);
        await driver.waitFor(() => document.querySelector("homeostat-chess")?.game?.ply() === 1, { timeout: 20_000 });
        // The minified modules loaded on demand load and keep their exports.
        const lazy = readdirSync(path.join(DIST_DIR, "extras")).filter((name) => name.endsWith(".js"));
        assert.ok(lazy.length >= 5, lazy.join(" "));
        const exports = await driver.evaluate(async (names) => {
          const out = {};
          for (const name of names) out[name] = Object.keys(await import(new URL(`extras/${name}`, document.baseURI).href)).sort();
          return out;
        }, lazy);
        for (const name of lazy) {
          const source = await import(new URL(`../../www/extras/${name}`, import.meta.url).href);
          assert.deepEqual(exports[name], Object.keys(source).sort(), `extras/${name} exports the same names`);
        }
      } finally {
        await distServer.close();
      }
    });

    test("the iframe route takes the options as query parameters, under the strict policy", async () => {
      await driver.open(`${strictServer.origin}/site/blog/frame.html`);
      const player = () => document.querySelector("iframe").contentDocument?.querySelector("homeostat-chess");
      await driver.waitFor(`(${player})()?.dataset.state === "ready"`, { timeout: 20_000 });
      const info = await driver.evaluate(`(() => {
        const el = (${player})();
        return {
          fen: el.fen,
          orientation: el.orientation,
          level: el.settings.level,
          player: el.settings.player,
          thinking: getComputedStyle(el.shadowRoot.querySelector(".thinking")).display,
        };
      })()`);
      assert.equal(info.fen, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
      assert.equal(info.orientation, "black");
      assert.equal(info.level, 2);
      assert.equal(info.player, "white");
      assert.equal(info.thinking, "none");
      assert.deepEqual(await driver.evaluate(() => window.cspViolations), []);
      const played = await driver.evaluate(`(${player})().move("Ra8#")`);
      assert.equal(played, true);
    });
  });
}
