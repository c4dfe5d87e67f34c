// End-to-end tests of <homeostat-chess> on the page in www/, run in Chromium, Firefox and WebKit:
// input by click and drag and by touch (tap-tap, finger drag), special moves, the engine and its thinking events,
// history (take back, redo, the history view by key), import/export, storage, game ends and main-thread responsiveness.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch, NO_TOUCH } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

const SCREENSHOT_DIR = fileURLToPath(new URL("../../target/browser-screenshots/", import.meta.url));
const FIXTURES_DIR = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** A strict policy: no inline scripts or styles; only wasm compilation is allowed beyond same-origin files. */
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; worker-src 'self'";
const WASM = path.join(WWW_DIR, "pkg", "homeostat_web_bg.wasm");

/** Settings for tests that must not wait for the engine: no analysis, no book, short thinking. */
const QUIET = { analysis: false, book: false, think: "500", level: 4, autoQueen: false, premoves: true };

/**
 * Runs in the page: resets the player to a position (FEN, or the start), settings and who plays what,
 * and starts recording its events in `window.events`.
 */
async function setUp({ fen = null, player = "both", settings = {} }) {
  const el = document.querySelector("homeostat-chess");
  await el.ready;
  el.setPlayer("both");
  el.applySettings({ orientation: "white", ...settings });
  if (fen) {
    if (!el.load(fen)) throw new Error(`could not load ${fen}`);
  } else el.newGame();
  window.events = [];
  if (!window.recording) {
    window.recording = true;
    for (const type of ["move", "thinking", "gameover", "error", "premove"]) {
      el.addEventListener(type, (event) => window.events.push({ type, detail: event.detail }));
    }
  }
  el.setPlayer(player);
  return el.fen;
}

/** Runs in the page: the offset of a square's centre from the element's top-left corner. */
function squareOffset(square) {
  const el = document.querySelector("homeostat-chess");
  const canvas = el.shadowRoot.querySelector(".board-canvas");
  const c = canvas.getBoundingClientRect();
  const h = el.getBoundingClientRect();
  const size = c.width / 8;
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const white = el.orientation === "white";
  const col = white ? file : 7 - file;
  const row = white ? 7 - rank : rank;
  return { x: c.left - h.left + (col + 0.5) * size, y: c.top - h.top + (row + 0.5) * size };
}

/**
 * Runs in the page: makes the page scrollable both ways around the player, and records in `window.touchLog` what
 * reaches the board canvas (pointer types, cancelled pointers, compatibility mouse events) and the scroll offsets seen.
 */
function recordTouch() {
  const el = document.querySelector("homeostat-chess");
  const canvas = el.shadowRoot.querySelector(".board-canvas");
  document.body.style.paddingTop = "1000px";
  document.body.style.paddingBottom = "2000px";
  window.touchLog = { pointerTypes: [], cancels: 0, mouse: [], scrolls: [] };
  if (!window.touchRecording) {
    window.touchRecording = true;
    canvas.addEventListener("pointerdown", (event) => window.touchLog.pointerTypes.push(event.pointerType));
    canvas.addEventListener("pointercancel", () => window.touchLog.cancels++);
    for (const type of ["mousedown", "mouseup"]) canvas.addEventListener(type, () => window.touchLog.mouse.push(type));
    addEventListener("scroll", () => window.touchLog.scrolls.push(scrollY));
  }
}

/** Runs in the page: the moves shown in the move list, and the one marked as shown on the board. */
function moveList() {
  const list = document.querySelector("homeostat-chess").shadowRoot.querySelector(".move-list");
  const buttons = [...list.querySelectorAll("button[data-ply]")];
  return { sans: buttons.map((b) => b.textContent), current: list.querySelector("[aria-current]")?.textContent ?? null };
}

/** Runs in the page: the piece letter on a square of the current position ("" when empty). */
function pieceOn(square) {
  const el = document.querySelector("homeostat-chess");
  return el.game.board()["abcdefgh".indexOf(square[0]) + 8 * (Number(square[1]) - 1)];
}

for (const engine of enginesUnderTest()) {
  describe(`player in ${engine}`, () => {
    let server;
    let driver;

    /** Clicks the centre of a square on the board. */
    const clickSquare = async (square) => driver.click("homeostat-chess", await driver.evaluate(squareOffset, square));
    /** Drags from one square's centre to another's. */
    const dragSquares = async (from, to) =>
      driver.drag("homeostat-chess", await driver.evaluate(squareOffset, from), await driver.evaluate(squareOffset, to));
    /** Taps the centre of a square with a finger. */
    const tapSquare = async (square) => driver.tap("homeostat-chess", await driver.evaluate(squareOffset, square));
    const fen = () => driver.evaluate(() => document.querySelector("homeostat-chess").fen);
    const setUpPage = (options) => driver.evaluate(setUp, options);

    before(
      async () => {
        assert.ok(existsSync(WASM), `${WASM} is missing: run \`make wasm\` first`);
        await mkdir(SCREENSHOT_DIR, { recursive: true });
        server = await startServer();
        driver = await launch(engine);
        await driver.open(`${server.origin}/`);
        await driver.evaluate(() => localStorage.clear());
        await driver.open(`${server.origin}/`);
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
      await server?.close();
    });

    test("the page loads the player with the start position", async () => {
      const state = await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state);
      assert.equal(state, "ready");
      // The board fits its backing store in the animation frame after a resize, so it may lag the layout
      // that becoming ready changes by a frame: give it up to 2 s (the assertion below fails if it never fits).
      await driver
        .waitFor(
          () => {
            const canvas = document.querySelector("homeostat-chess").shadowRoot.querySelector(".board-canvas");
            return canvas.width >= Math.floor(canvas.getBoundingClientRect().width);
          },
          { timeout: 2000 },
        )
        .catch(() => {});
      const info = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const canvas = el.shadowRoot.querySelector(".board-canvas");
        return { fen: el.fen, turn: el.turn, width: canvas.width, css: canvas.getBoundingClientRect().width };
      });
      assert.equal(info.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
      assert.equal(info.turn, "w");
      assert.ok(info.css > 200, `board is ${info.css}px wide`);
      assert.ok(info.width >= Math.floor(info.css), "canvas backing store matches its size");
    });

    test("moves by click-click and by drag-and-drop", async () => {
      await setUpPage({ settings: QUIET });
      await clickSquare("e2");
      const targets = await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.targets.map((t) => t.to).sort());
      assert.deepEqual(targets, ["e3", "e4"]);
      await clickSquare("e4");
      await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "b");
      assert.equal(await driver.evaluate(pieceOn, "e4"), "P");
      await dragSquares("g8", "f6");
      await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "w");
      assert.equal(await driver.evaluate(pieceOn, "f6"), "n");
      const moves = await driver.evaluate(() => window.events.filter((e) => e.type === "move").map((e) => [e.detail.san, e.detail.by]));
      assert.deepEqual(moves, [["e4", "human"], ["Nf6", "human"]]);
    });

    test("moves by touch: tap-tap and dragging with a finger, without scrolling the page", async (t) => {
      await setUpPage({ settings: QUIET });
      await driver.evaluate(recordTouch);
      try {
        await tapSquare("e2");
        const first = await driver.evaluate(() => window.touchLog.pointerTypes);
        if (first[0] !== "touch" && NO_TOUCH[engine]) {
          // Checked on every run: the tap reached the board, only not as touch.
          assert.deepEqual(first, ["mouse"]);
          t.skip(`${engine} cannot be given touch input: ${NO_TOUCH[engine]}`);
          return;
        }
        assert.deepEqual(first, ["touch"]);
        const targets = await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.targets.map((t) => t.to).sort());
        assert.deepEqual(targets, ["e3", "e4"]);
        await tapSquare("e4");
        await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "b");
        assert.equal(await driver.evaluate(pieceOn, "e4"), "P");

        // A vertical drag: the gesture a browser takes for scrolling where the board lacks touch-action: none.
        // Each gesture first scrolls the player into the middle of the padded page, which could then scroll either way.
        const page = await driver.evaluate(() => ({ y: scrollY, max: document.documentElement.scrollHeight - innerHeight }));
        assert.ok(page.y > 0 && page.y < page.max, `the page can scroll both ways from ${JSON.stringify(page)}`);
        const lifted = {};
        await driver.touchDrag("homeostat-chess", await driver.evaluate(squareOffset, "d7"), await driver.evaluate(squareOffset, "d5"), {
          beforeLift: async () => {
            Object.assign(lifted, await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.drag));
          },
        });
        await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "w");
        assert.equal(await driver.evaluate(pieceOn, "d5"), "p");
        assert.equal(lifted.touch, true, `the dragged piece is drawn for a finger: ${JSON.stringify(lifted)}`);
        assert.equal(lifted.over, "d5");
        assert.ok(lifted.lift > 0 && lifted.scale > 1, "drawn larger and above the finger");

        assert.equal(await fen(), "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert.deepEqual(await driver.evaluate(moveList), { sans: ["e4", "d5"], current: "d5" });
        const moves = await driver.evaluate(() => window.events.filter((e) => e.type === "move").map((e) => [e.detail.san, e.detail.by]));
        assert.deepEqual(moves, [["e4", "human"], ["d5", "human"]]);
        const log = await driver.evaluate(() => window.touchLog);
        assert.deepEqual(log.pointerTypes, ["touch", "touch", "touch"]);
        assert.equal(log.cancels, 0, "no pointer was cancelled (the browser did not take the drag for a scroll)");
        assert.deepEqual(log.mouse, [], "no compatibility mouse events after the taps");
        assert.equal(await driver.evaluate(() => scrollY), page.y, `the page did not scroll (offsets seen: ${log.scrolls})`);
      } finally {
        await driver.evaluate(() => {
          document.body.style.paddingTop = "";
          document.body.style.paddingBottom = "";
          scrollTo(0, 0);
        });
      }
    });

    test("an illegal move is refused", async () => {
      const before = await setUpPage({ settings: QUIET });
      await clickSquare("e2");
      await clickSquare("e5");
      await dragSquares("d1", "d5");
      assert.equal(await fen(), before);
      const answer = await driver.evaluate(() => document.querySelector("homeostat-chess").move("e5"));
      assert.equal(answer, false);
      const errors = await driver.evaluate(() => window.events.filter((e) => e.type === "error").map((e) => e.detail.message));
      assert.equal(errors.length, 1);
      assert.match(errors[0], /illegal/i);
      assert.equal(await fen(), before);
    });

    test("promotion opens the chooser and promotes to the chosen piece", async () => {
      await setUpPage({ fen: "k7/4P3/8/8/8/8/8/K7 w - - 0 1", settings: QUIET });
      await clickSquare("e7");
      const kinds = await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.targets.map((t) => t.kind));
      assert.deepEqual(kinds, ["promotion"]);
      await clickSquare("e8");
      assert.ok(await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.promotion), "chooser open");
      // Choices run from the promotion square inwards: queen e8, rook e7, bishop e6, knight e5.
      await clickSquare("e5");
      await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "b");
      assert.equal(await driver.evaluate(pieceOn, "e8"), "N");
    });

    test("with 'Always promote to a queen' set, a pawn reaching the last rank becomes a queen without the chooser", async () => {
      await setUpPage({ fen: "k7/4P3/8/8/8/8/8/K7 w - - 0 1", settings: QUIET });
      const set = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        el.shadowRoot.querySelector("[data-action=settings]").click();
        const box = el.shadowRoot.querySelector("[data-dialog=settings] input[name=autoQueen]");
        const before = box.checked;
        box.click();
        el.shadowRoot.querySelector("[data-dialog=settings] button[value=done]").click();
        return { before, after: el.settings.autoQueen, stored: JSON.parse(localStorage.getItem("homeostat.settings.v1")).autoQueen };
      });
      assert.deepEqual(set, { before: false, after: true, stored: true });
      await dragSquares("e7", "e8");
      await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "b");
      assert.equal(await driver.evaluate(pieceOn, "e8"), "Q");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.promotion), null, "no chooser");
    });

    test("after a game against the engine, Rematch starts the same position with the colours swapped", async () => {
      const fen = "k7/8/1K6/8/8/8/7Q/8 w - - 0 1";
      await setUpPage({ fen, player: "white", settings: QUIET });
      // Player as wide as a phone: the result and these buttons come first under the board, above the thinking panel
      // and the toolbar (a scroll away below them); while a game goes on the thinking panel leads.
      const phoneOrder = () =>
        driver.evaluate(async () => {
          const el = document.querySelector("homeostat-chess");
          el.style.width = "390px";
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const top = (selector) => el.shadowRoot.querySelector(selector).getBoundingClientRect().top;
          const order = ["status-panel", "thinking", "toolbar"].sort((a, b) => top(`.${a}`) - top(`.${b}`));
          const belowBoard = top(".status-panel") > top(".board");
          el.style.width = "";
          return { order, belowBoard };
        });
      assert.deepEqual(await phoneOrder(), { order: ["thinking", "toolbar", "status-panel"], belowBoard: true });
      await dragSquares("h2", "h8");
      await driver.waitFor(() => window.events.some((e) => e.type === "gameover"));
      const offered = await driver.evaluate(() => {
        const button = document.querySelector("homeostat-chess").shadowRoot.querySelector(".rematch");
        return { shown: button.getClientRects().length > 0, text: button.textContent };
      });
      assert.deepEqual(offered, { shown: true, text: "Rematch as Black" });
      assert.deepEqual(await phoneOrder(), { order: ["status-panel", "thinking", "toolbar"], belowBoard: true });
      // Read in the same task as the click: the engine, White now, mates at once.
      const after = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        el.shadowRoot.querySelector(".rematch").click();
        return { fen: el.fen, player: el.settings.player, orientation: el.orientation, hidden: el.shadowRoot.querySelector(".game-end").hidden };
      });
      assert.deepEqual(after, { fen, player: "black", orientation: "black", hidden: true });
      // The engine now has White and moves first.
      await driver.waitFor(() => window.events.some((e) => e.type === "move" && e.detail.by === "engine"), { timeout: 20_000 });
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("the flag asks before resigning: Keep playing or Escape keeps the game, Resign ends it", async () => {
      await setUpPage({ player: "white", settings: QUIET });
      await clickSquare("e2");
      await clickSquare("e4");
      await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "w", { timeout: 20_000 });
      const ask = () =>
        driver.evaluate(() => {
          const root = document.querySelector("homeostat-chess").shadowRoot;
          root.querySelector(".toolbar [data-action=resign]").click();
          const dialog = root.querySelector("[data-dialog=resign]");
          return { open: dialog.open, text: dialog.querySelector("[data-field=resign-text]").textContent };
        });
      const over = () => driver.evaluate(() => document.querySelector("homeostat-chess").status);
      assert.deepEqual(await ask(), { open: true, text: "Homeostat wins as Black. The game stays on the board to look through or review." });
      assert.equal((await over()).over, false, "asking resigns nothing");
      await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-dialog=resign] button[value=cancel]").click());
      assert.equal((await over()).over, false, "Keep playing keeps the game");
      assert.equal((await ask()).open, true);
      await driver.press("Escape");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-dialog=resign]").open), false);
      assert.equal((await over()).over, false, "Escape keeps the game");
      await ask();
      await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-dialog=resign] button[value=resign]").click());
      // The dialog's close event, which resigns, comes in a later task.
      await driver.waitFor(() => document.querySelector("homeostat-chess").status.over);
      assert.deepEqual(await over(), { over: true, result: "0-1", reason: "resignation" });
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("castling is marked and played", async () => {
      await setUpPage({ fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", settings: QUIET });
      await clickSquare("e1");
      const castles = await driver.evaluate(() =>
        document.querySelector("homeostat-chess").boardState.targets.filter((t) => t.kind === "castle").map((t) => t.to).sort(),
      );
      assert.deepEqual(castles, ["c1", "g1"]);
      await clickSquare("g1");
      await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "b");
      assert.match(await fen(), /^r3k2r\/8\/8\/8\/8\/8\/8\/R4RK1 b kq/);
    });

    test("en passant is marked and played", async () => {
      await setUpPage({ fen: "k7/8/8/3pP3/8/8/8/K7 w - d6 0 2", settings: QUIET });
      await clickSquare("e5");
      const kinds = await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.targets.map((t) => `${t.to}:${t.kind}`).sort());
      assert.deepEqual(kinds, ["d6:en-passant", "e6:quiet"]);
      await clickSquare("d6");
      await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "b");
      assert.equal(await driver.evaluate(pieceOn, "d5"), "");
      assert.equal(await driver.evaluate(pieceOn, "d6"), "P");
    });

    test("the engine replies and reports its thinking with the applet's line", async () => {
      await setUpPage({ player: "white", settings: { ...QUIET, think: "1000" } });
      await clickSquare("e2");
      await clickSquare("e4");
      await driver.waitFor(() => window.events.some((e) => e.type === "move" && e.detail.by === "engine"), { timeout: 20_000 });
      const thinking = await driver.evaluate(() => window.events.filter((e) => e.type === "thinking").map((e) => e.detail));
      // About one second of thinking: the panel must hear from the engine at least four times a second.
      assert.ok(thinking.length >= 4, `${thinking.length} thinking events in a one-second search`);
      const line = thinking.find((t) => /^Considering /.test(t.text ?? ""));
      assert.ok(line, `a Considering line among ${JSON.stringify(thinking.slice(0, 2))}`);
      assert.match(line.text, /^Considering \S+ \(\d+\) of \d+ moves, \d+ replies, [\d,]+ positions: \S+ \([+\-−#\d.]+\)/);
      assert.ok(thinking.some((t) => t.depth > 0 && t.nodes > 0 && t.pv?.length), "depth, nodes and pv reported");
      // The panel keeps the search's last line after the move: the applet's line, not a placeholder.
      const panel = await driver.evaluate(() => {
        const root = document.querySelector("homeostat-chess").shadowRoot;
        const text = (field) => root.querySelector(`[data-field=${field}]`).textContent;
        return { line: text("line"), depth: text("depth"), nodes: text("nodes"), pv: text("pv") };
      });
      assert.match(panel.line, /^Considering \S+ \(\d+\) of \d+ moves/);
      assert.match(panel.depth, /^\d+/);
      assert.notEqual(panel.nodes, "–");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").turn), "w");
    });

    test("a premove set while the engine thinks is played as soon as it has replied", async () => {
      // A long think, cut short by "move now" once the premove is set: slow drivers have the time they need.
      await setUpPage({ player: "white", settings: { ...QUIET, level: 8, think: "20000" } });
      await clickSquare("e2");
      await clickSquare("e4");
      await driver.waitFor(() => document.querySelector("homeostat-chess").thinking);
      // Not the person's move, yet their pieces can be picked up: the squares offered are the piece's reach.
      await clickSquare("g1");
      const offered = await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.targets.map((t) => t.to).sort());
      assert.deepEqual(offered, ["e2", "f3", "h3"]);
      await clickSquare("f3");
      const set = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        return { premove: el.premove, marked: el.boardState.premove, thinking: el.thinking, fen: el.fen };
      });
      assert.deepEqual(set.premove, { from: "g1", to: "f3" });
      assert.deepEqual(set.marked, { from: "g1", to: "f3" });
      assert.ok(set.thinking, "set while the engine was still thinking");
      assert.equal(set.fen.split(" ")[1], "b", "the premove is not played before the reply");
      await driver.evaluate(() => document.querySelector("homeostat-chess").moveNow());
      await driver.waitFor(() => window.events.filter((e) => e.type === "move").length >= 3, { timeout: 20_000 });
      const after = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        return {
          moves: window.events.filter((e) => e.type === "move").map((e) => [e.detail.san, e.detail.by]),
          premoves: window.events.filter((e) => e.type === "premove").map((e) => e.detail.state),
          premove: el.premove,
          marked: el.boardState.premove,
          turn: el.turn,
        };
      });
      assert.deepEqual(after.moves.map((m) => m[1]), ["human", "engine", "human"]);
      assert.equal(after.moves[2][0], "Nf3");
      assert.deepEqual(after.premoves, ["set", "played"]);
      assert.equal(after.premove, null);
      assert.equal(after.marked, null);
      assert.equal(after.turn, "b", "the engine thinks again");
      // Handing the engine's side to a person drops the premove: it was meant as the answer to the engine.
      await dragSquares("d2", "d4");
      const dropped = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const set = el.premove;
        el.setPlayer("both");
        return { set, now: el.premove, last: window.events.filter((e) => e.type === "premove").at(-1).detail };
      });
      assert.deepEqual(dropped.set, { from: "d2", to: "d4" });
      assert.equal(dropped.now, null);
      assert.equal(dropped.last.reason, "cancelled: the players changed");
      // Turned off in Settings: a premove set is dropped, and the person's pieces stay put while the engine thinks.
      await driver.evaluate(() => document.querySelector("homeostat-chess").setPlayer("white"));
      await driver.waitFor(() => document.querySelector("homeostat-chess").thinking);
      await dragSquares("f1", "c4");
      assert.deepEqual(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), { from: "f1", to: "c4" });
      const off = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        el.shadowRoot.querySelector("[data-action=settings]").click();
        el.shadowRoot.querySelector("[data-dialog=settings] input[name=premoves]").click();
        el.shadowRoot.querySelector("[data-dialog=settings] button[value=done]").click();
        return { premoves: el.settings.premoves, premove: el.premove, last: window.events.filter((e) => e.type === "premove").at(-1).detail.reason };
      });
      assert.deepEqual(off, { premoves: false, premove: null, last: "cancelled: premoves are turned off" });
      await clickSquare("f3");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.selected), null, "the knight cannot be picked up");
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("a premove the reply leaves illegal is dropped; a click or Escape cancels one; the keyboard and the move box set one", async () => {
      await setUpPage({ player: "white", settings: { ...QUIET, level: 8, think: "20000" } });
      await clickSquare("e2");
      await clickSquare("e4");
      await driver.waitFor(() => document.querySelector("homeostat-chess").thinking);
      // A click on a square the piece cannot reach cancels, as does Escape.
      await dragSquares("d1", "h5");
      assert.deepEqual(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), { from: "d1", to: "h5" });
      await clickSquare("c6");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), null);
      await dragSquares("d1", "h5");
      await driver.press("Escape");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), null);
      // By the keyboard too: the focus square starts on e2.
      await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector(".board-canvas").focus());
      // Firefox under automation sends no focus event, and the board was clicked: there Enter starts keyboard play.
      if (!(await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.cursor))) await driver.press("Enter");
      for (const key of ["ArrowRight", "ArrowRight", "ArrowDown", "Enter"]) await driver.press(key);
      const said = () => driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-field=announce]").textContent);
      assert.equal(await said(), "g1, white knight, selected; 3 premove squares");
      for (const key of ["ArrowUp", "ArrowUp", "ArrowLeft", "Enter"]) await driver.press(key);
      assert.deepEqual(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), { from: "g1", to: "f3" });
      await driver.press("Escape");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), null);
      // Typed in the move box: a move that cannot be a premove is explained, one that can is set.
      const typeMove = async (text) => {
        await driver.evaluate(() => {
          const input = document.querySelector("homeostat-chess").shadowRoot.querySelector(".san-input");
          input.value = "";
          input.focus();
        });
        for (const key of text) await driver.press(key);
        await driver.press("Enter");
        return driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-field=san-error]").textContent);
      };
      assert.equal(await typeMove("Rd1"), "Not a premove: your rooks on a1 and h1 could each go to d1: say which, as Rad1.");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), null);
      assert.equal(await typeMove("Nf3"), "");
      assert.deepEqual(await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.premove), { from: "g1", to: "f3" });
      await driver.press("Escape");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), null);
      // The d2 pawn still blocks the bishop whatever Black replies: set now, refused then.
      await dragSquares("c1", "h6");
      assert.deepEqual(await driver.evaluate(() => document.querySelector("homeostat-chess").premove), { from: "c1", to: "h6" });
      await driver.evaluate(() => document.querySelector("homeostat-chess").moveNow());
      await driver.waitFor(() => window.events.some((e) => e.type === "move" && e.detail.by === "engine"), { timeout: 20_000 });
      const cancelled = await driver.waitFor(() => {
        const last = window.events.filter((e) => e.type === "premove").at(-1)?.detail;
        return last?.from === "c1" && last.state === "cancelled" ? last : null;
      });
      assert.match(cancelled.reason, /^cancelled: not a legal move after \S+$/);
      const shown = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        return { premove: el.premove, marked: el.boardState.premove, turn: el.turn, moves: window.events.filter((e) => e.type === "move").length };
      });
      assert.deepEqual(shown, { premove: null, marked: null, turn: "w", moves: 2 });
      // Said to screen readers too.
      assert.match(await said(), /^Premove c1 to h6 cancelled: not a legal move after/);
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("the player bars show the material each side is ahead by, for the position shown", async () => {
      const bars = () =>
        driver.evaluate(() => {
          const root = document.querySelector("homeostat-chess").shadowRoot;
          return ["top", "bottom"].map((where) => {
            const canvas = root.querySelector(`[data-field=${where}-material]`);
            return { label: canvas.hidden ? null : canvas.getAttribute("aria-label"), points: root.querySelector(`[data-field=${where}-points]`).textContent, width: canvas.hidden ? 0 : canvas.getBoundingClientRect().width };
          });
        });
      await setUpPage({ settings: QUIET });
      assert.deepEqual((await bars()).map((b) => [b.label, b.points]), [[null, ""], [null, ""]]);
      // 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Nge2 Qxe2+ 5. Bxe2: pawns level, White a queen for a knight ahead.
      for (const m of ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qe5+", "Nge2", "Qxe2+", "Bxe2"]) await driver.evaluate((m) => document.querySelector("homeostat-chess").move(m), m);
      const shown = await bars();
      assert.deepEqual(shown.map((b) => [b.label, b.points]), [["ahead by a knight", ""], ["ahead by a queen, +6", "+6"]]);
      assert.ok(shown.every((b) => b.width > 10), "the taken pieces are drawn");
      // Looking back at the position before the queen was taken.
      await driver.evaluate(() => document.querySelector("homeostat-chess").history.view(8));
      assert.deepEqual((await bars()).map((b) => [b.label, b.points]), [["ahead by a knight, +3", "+3"], [null, ""]]);
      await driver.evaluate(() => document.querySelector("homeostat-chess").history.live());
      assert.equal((await bars())[1].points, "+6");
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("take back and redo, with the keyboard and the methods", async () => {
      await setUpPage({ player: "white", settings: QUIET });
      await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        el.setPlayer("both");
        for (const m of ["e4", "e5", "Nf3", "Nc6"]) el.move(m);
        el.setPlayer("white");
        el.shadowRoot.activeElement?.blur();
      });
      await driver.press("Backspace");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").game.ply()), 2);
      await driver.press("Backspace");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").game.ply()), 0);
      await driver.press("r");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").game.ply()), 2);
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").redo()), true);
      const sans = await driver.evaluate(() => document.querySelector("homeostat-chess").game.historySan());
      assert.deepEqual(sans, ["e4", "e5", "Nf3", "Nc6"]);
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").undo()), true);
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").game.ply()), 2);
    });

    test("← → Home End step through the moves like the move list, without changing the game", async () => {
      await setUpPage({ player: "white", settings: QUIET });
      const live = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        el.setPlayer("both");
        for (const m of ["e4", "e5", "Nf3", "Nc6", "Bb5"]) el.move(m);
        el.shadowRoot.activeElement?.blur();
        return el.fen;
      });
      /** What the player shows: the ply on the board, its pieces, the move marked in the list, and the game. */
      const shown = () =>
        driver.evaluate(() => {
          const el = document.querySelector("homeostat-chess");
          const list = el.shadowRoot.querySelector(".move-list");
          return {
            viewPly: el.viewPly,
            pieces: el.boardState.pieces.join(","),
            current: list.querySelector("[aria-current]")?.textContent ?? null,
            interactive: el.boardState.interactive,
            fen: el.fen,
            ply: el.game.ply(),
            redo: el.game.redoCount(),
          };
        });
      /** The same, reached by clicking the move list at a ply (null: back to the game). */
      const clicked = async (ply) => {
        await driver.evaluate((ply) => {
          const el = document.querySelector("homeostat-chess");
          if (ply === null) el.shadowRoot.querySelector(".back-to-game").click();
          else el.shadowRoot.querySelector(`.move-list button[data-ply="${ply}"]`).click();
        }, ply);
        return shown();
      };
      const boardAt = (ply) =>
        driver.evaluate((ply) => {
          const el = document.querySelector("homeostat-chess");
          return el.game.boardAt(ply).map((p) => p || "").join(",");
        }, ply);
      const keep = { fen: live, ply: 5, redo: 0 };

      await driver.press("ArrowLeft");
      const back1 = await shown();
      assert.deepEqual(back1, { ...keep, viewPly: 4, pieces: await boardAt(4), current: "Nc6", interactive: false });
      assert.deepEqual(await clicked(4), back1, "the same view as clicking Nc6 in the move list");
      await driver.press("ArrowLeft");
      assert.deepEqual(await shown(), { ...keep, viewPly: 3, pieces: await boardAt(3), current: "Nf3", interactive: false });
      await driver.press("Home");
      const start = await shown();
      assert.deepEqual({ ...start, pieces: undefined }, { ...keep, viewPly: 0, pieces: undefined, current: null, interactive: false });
      assert.equal(start.pieces, await boardAt(0));
      await driver.press("ArrowLeft");
      assert.equal((await shown()).viewPly, 0, "← at the start stays there");
      await driver.press("ArrowRight");
      assert.deepEqual(await shown(), { ...(await clicked(1)), viewPly: 1, current: "e4" });
      await driver.press("End");
      const end = await shown();
      assert.deepEqual(end, { ...keep, viewPly: null, pieces: end.pieces, current: "Bb5", interactive: true });
      assert.deepEqual(await clicked(null), end, "the same as the Back to game button");
      await driver.press("ArrowRight");
      assert.equal((await shown()).viewPly, null, "→ at the current position stays there");
      // Escape also goes back to the game; a move from the view needs the live position.
      await driver.press("ArrowLeft");
      await driver.press("ArrowLeft");
      assert.equal((await shown()).viewPly, 3);
      await driver.press("Escape");
      assert.deepEqual(await shown(), end);
      const moves = await driver.evaluate(() => window.events.filter((e) => e.type === "move").length);
      assert.equal(moves, 5, "no move was played or taken back by stepping through the game");
      // A move typed while looking back is played in the game, which the board returns to.
      await driver.press("Home");
      await driver.evaluate(() => {
        const input = document.querySelector("homeostat-chess").shadowRoot.querySelector(".san-input");
        input.focus();
      });
      for (const key of "a6") await driver.press(key);
      await driver.press("Enter");
      const typed = await shown();
      assert.deepEqual({ viewPly: typed.viewPly, ply: typed.ply, current: typed.current }, { viewPly: null, ply: 6, current: "a6" });
      // Shortcut keys are for the player again, not the box.
      await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.activeElement?.blur());
    });

    test("flip turns the board and clicks follow it", async () => {
      await setUpPage({ settings: QUIET });
      await driver.press("f");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").orientation), "black");
      const offset = await driver.evaluate(squareOffset, "e2");
      const size = await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector(".board-canvas").getBoundingClientRect().width);
      assert.ok(offset.y < size / 2 + 100, "e2 is near the top when Black is at the bottom");
      await clickSquare("e2");
      await clickSquare("e4");
      await driver.waitFor(() => document.querySelector("homeostat-chess").turn === "b");
      assert.equal(await driver.evaluate(pieceOn, "e4"), "P");
      await driver.press("f");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").orientation), "white");
    });

    test("PGN export and import round trip; a bad import shows what is wrong and keeps the game", async () => {
      await setUpPage({ settings: QUIET });
      const exported = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        for (const m of ["d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Qc2", "O-O"]) el.move(m);
        return { pgn: el.pgn, fen: el.fen };
      });
      assert.match(exported.pgn, /1\. d4 Nf6 2\. c4 e6 3\. Nc3 Bb4 4\. Qc2 O-O/);
      const imported = await driver.evaluate((pgn) => {
        const el = document.querySelector("homeostat-chess");
        el.newGame();
        const ok = el.load(pgn);
        return { ok, fen: el.fen, sans: el.game.historySan().join(" ") };
      }, exported.pgn);
      assert.equal(imported.ok, true);
      assert.equal(imported.fen, exported.fen);
      assert.equal(imported.sans, "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O");
      // A bad FEN through the dialog: the message shows and the game stays.
      await driver.press("i");
      await driver.waitFor(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("dialog[data-dialog=io]").open);
      const shown = await driver.evaluate(() => {
        const root = document.querySelector("homeostat-chess").shadowRoot;
        const dialog = root.querySelector("dialog[data-dialog=io]");
        const hasPgn = dialog.querySelector("textarea").value.includes("4. Qc2 O-O");
        dialog.querySelector("textarea").value = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1";
        dialog.querySelector("[data-io=load]").click();
        const line = root.querySelector("[data-field=io-error]");
        return { hasPgn, message: line.textContent, kind: line.dataset.kind, open: dialog.open };
      });
      assert.ok(shown.hasPgn, "the dialog shows the game's PGN");
      assert.ok(shown.message.length > 3, "an error message is shown");
      assert.equal(shown.kind, "error");
      assert.equal(shown.open, true);
      assert.equal(await fen(), exported.fen);
      // A PGN of several games: Load lists them first, then opens the one chosen.
      const several = '[White "Ada"]\n[Black "Ben"]\n[Event "Club"]\n\n1. e4 e5 *\n\n[White "Cy"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e4 *';
      const listed = await driver.evaluate((text) => {
        const root = document.querySelector("homeostat-chess").shadowRoot;
        const dialog = root.querySelector("dialog[data-dialog=io]");
        dialog.querySelector("textarea").value = text;
        dialog.querySelector("[data-io=load]").click();
        const row = root.querySelector("[data-field=io-games]");
        const options = [...row.querySelectorAll("option")].map((o) => o.textContent);
        const line = root.querySelector("[data-field=io-error]");
        return { message: line.textContent, kind: line.dataset.kind, hidden: row.hidden, options, open: dialog.open };
      }, several);
      assert.equal(listed.message, "This PGN holds 3 games: choose one, then press Load.");
      assert.equal(listed.kind, "info", "guidance is not shown as an error");
      assert.equal(listed.hidden, false);
      assert.equal(listed.open, true);
      assert.deepEqual(listed.options.slice(0, 2), ["1. Ada – Ben · Club · * · 1 moves", "2. Cy – ? · 0-1 · 2 moves"]);
      assert.match(listed.options[2], /^3\. cannot be read: .*e4/);
      const chosen = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const dialog = el.shadowRoot.querySelector("dialog[data-dialog=io]");
        dialog.querySelector("select[name=game]").value = "1";
        dialog.querySelector("[data-io=load]").click();
        return { open: dialog.open, sans: el.game.historySan().join(" "), reason: el.game.outcome()?.reason };
      });
      assert.deepEqual(chosen, { open: false, sans: "f3 e5 g4 Qh4#", reason: "checkmate" });
      assert.equal(await driver.evaluate((text) => document.querySelector("homeostat-chess").load(text, 0) && document.querySelector("homeostat-chess").game.historySan().join(" "), several), "e4 e5");
      assert.equal(await driver.evaluate((text) => document.querySelector("homeostat-chess").load(text, 2), several), false, "an unreadable game is refused");
      const badIndex = await driver.evaluate((text) => {
        const el = document.querySelector("homeostat-chess");
        return { ok: el.load(text, -1), status: el.status, line: el.shadowRoot.querySelector("[data-field=status]").textContent, sans: el.game.historySan().join(" ") };
      }, several);
      assert.equal(badIndex.ok, false);
      assert.match(badIndex.line, /^load: the game's index counts from 0, so -1 is not one/);
      assert.equal(badIndex.sans, "e4 e5", "the game is kept");
      await driver.press("i");
      await driver.waitFor(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("dialog[data-dialog=io]").open);
      await driver.press("Escape");
      await driver.evaluate(() => document.querySelector("homeostat-chess").dialogs.closeAll());
    });

    test("the new-game dialog shows each level's measured Elo", async () => {
      await setUpPage({ settings: QUIET });
      // The key comes a frame after the scripted set-up, as a person's would (pressed in the same task as the
      // previous test's Escape and the new game, Chromium dropped it now and then: 1 of 3 local runs, 1 CI run).
      await driver.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await driver.press("n");
      await driver.waitFor(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("dialog[data-dialog=new]").open);
      const shown = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const dialog = el.shadowRoot.querySelector("dialog[data-dialog=new]");
        const out = dialog.querySelector("[data-field=level-out]");
        const before = out.textContent;
        const slider = dialog.querySelector("input[name=level]");
        slider.value = "8";
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        return { before, after: out.textContent, elo1: el.rules.levelElo(1), elo4: el.rules.levelElo(4), elo8: el.rules.levelElo(8) };
      });
      assert.ok(shown.elo1 < shown.elo4 && shown.elo4 < shown.elo8, JSON.stringify(shown));
      assert.equal(shown.before, `4 · about ${shown.elo4} Elo`);
      assert.equal(shown.after, `8 · about ${shown.elo8} Elo`);
      await driver.evaluate(() => document.querySelector("homeostat-chess").dialogs.closeAll());
    });

    test("stalemate is announced", async () => {
      await setUpPage({ fen: "k7/8/1Q6/8/8/8/8/7K w - - 0 1", settings: QUIET });
      await driver.evaluate(() => document.querySelector("homeostat-chess").move("Kg2"));
      const status = await driver.evaluate(() => document.querySelector("homeostat-chess").status);
      assert.deepEqual(status, { over: true, result: "1/2-1/2", reason: "stalemate" });
      const shown = await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-field=status]").textContent);
      assert.match(shown, /Draw by stalemate/);
      const over = await driver.evaluate(() => window.events.filter((e) => e.type === "gameover").map((e) => e.detail));
      assert.deepEqual(over, [{ result: "1/2-1/2", reason: "stalemate" }]);
    });

    test("threefold repetition is announced", async () => {
      await setUpPage({ settings: QUIET });
      const status = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        for (const m of ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]) el.move(m);
        return el.status;
      });
      assert.equal(status.over, true);
      assert.equal(status.result, "1/2-1/2");
      assert.match(status.reason, /threefold/);
      const banner = await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector(".board-banner").textContent);
      assert.match(banner, /Draw · threefold/);
    });

    test("a PGN's bare result (1-0 with no mate) is shown as the result alone", async () => {
      await setUpPage({ settings: QUIET });
      const shown = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const ok = el.load("1. e4 e5 2. Qh5 Nc6 1-0");
        const root = el.shadowRoot;
        return { ok, status: el.status, line: root.querySelector("[data-field=status]").textContent, banner: root.querySelector(".board-banner").textContent };
      });
      assert.deepEqual(shown, { ok: true, status: { over: true, result: "1-0", reason: "unspecified" }, line: "White wins", banner: "White wins" });
    });

    test("a PGN's side lines beyond one variation per move are not dropped without a word", async () => {
      await setUpPage({ settings: QUIET });
      /** Runs in the page: loads `text` and reads the status line. */
      const loadAndRead = (text) => {
        const el = document.querySelector("homeostat-chess");
        const ok = el.load(text);
        const status = el.shadowRoot.querySelector("[data-field=status]");
        return { ok, text: status.textContent, error: status.dataset.error ?? null, heard: el.shadowRoot.querySelector("[data-field=announce]").textContent };
      };
      const note = "Not kept from this PGN: 2 side lines (further variations, or words inside one). The player keeps one variation per move.";
      const loaded = await driver.evaluate(loadAndRead, "1. e4 (1. d4 {solid} d5) (1. c4) e5 (1... c5) 2. Nf3 *");
      assert.deepEqual(loaded, { ok: true, text: note, error: null, heard: note });
      // A game that loses nothing says nothing of the kind: the status line is the game's own.
      const plain = await driver.evaluate(loadAndRead, "1. e4 (1. d4) e5 *");
      assert.deepEqual([plain.ok, plain.text, plain.error], [true, "White to move", null]);
      // Several games and no choice: the status line says the first is shown, and what it did not keep.
      const two = "1. e4 (1. d4 {solid}) e5 *\n\n1. d4 d5 2. c4 *";
      const first = await driver.evaluate(loadAndRead, two);
      const both = "This PGN holds 2 games; the first is shown. Not kept from it: 1 side line (further variations, or words inside one).";
      assert.deepEqual(first, { ok: true, text: both, error: null, heard: both });
      // A game chosen by its index: nothing to say.
      const chosen = await driver.evaluate((text) => {
        const el = document.querySelector("homeostat-chess");
        const ok = el.load(text, 1);
        return { ok, sans: el.game.historySan().join(" "), text: el.shadowRoot.querySelector("[data-field=status]").textContent };
      }, two);
      assert.deepEqual(chosen, { ok: true, sans: "d4 d5 c4", text: "Black to move" });
    });

    test("auto-play reaches a result from a position near the end", async () => {
      await setUpPage({ fen: "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", player: "none", settings: { ...QUIET, think: "300" } });
      await driver.waitFor(() => window.events.some((e) => e.type === "gameover"), { timeout: 30_000 });
      const status = await driver.evaluate(() => document.querySelector("homeostat-chess").status);
      assert.equal(status.over, true);
      assert.equal(status.result, "1-0");
      assert.equal(status.reason, "checkmate");
      const graph = await driver.evaluate(() => !document.querySelector("homeostat-chess").shadowRoot.querySelector(".graph").hidden);
      assert.ok(graph, "the evaluation graph shows after the game");
    });

    test("no long main-thread task while the engine thinks", async () => {
      // Where the Long Tasks API is missing (Firefox, WebKit) the measure is how late a 10 ms timer
      // fires, which is coarser: on a loaded 2-core machine WebKit's timers have come 369 ms late with
      // the page idle. A search on the main thread would stop the timer for the whole 2 s, and costly
      // drawing of the progress would make a late tick at every update, so a timer attempt passes
      // with no gap of 400 ms or more and at most three over 60 ms. A stall of the whole machine (or
      // a garbage collection under load) also makes a long task or a late timer, at random; work of
      // the page's own would show in every attempt. So up to three searches are measured, in every
      // engine, and one must pass.
      const timerPassed = (m) => m.maxGap < 400 && m.slow.length <= 3;
      let measured;
      for (let attempt = 1; attempt <= 3; attempt++) {
        await setUpPage({ player: "black", settings: { ...QUIET, level: 8, think: "2500" } });
        measured = await driver.evaluate(async () => {
          const el = document.querySelector("homeostat-chess");
          const longTasks = [];
          const supported = PerformanceObserver.supportedEntryTypes?.includes("longtask");
          let observer = null;
          if (supported) {
            observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
            observer.observe({ type: "longtask" });
          }
          let maxGap = 0;
          let last = performance.now();
          let running = true;
          const gaps = [];
          const tick = () => {
            const now = performance.now();
            gaps.push(now - last);
            maxGap = Math.max(maxGap, now - last);
            last = now;
            if (running) setTimeout(tick, 10);
          };
          setTimeout(tick, 10);
          const start = performance.now();
          while (!el.thinking && performance.now() - start < 5000) await new Promise((r) => setTimeout(r, 20));
          const thinkingSeen = el.thinking;
          await new Promise((r) => setTimeout(r, 2000));
          running = false;
          observer?.disconnect();
          const slow = gaps.filter((g) => g > 60).map(Math.round);
          const moves = window.events.filter((e) => e.type === "move").map((e) => e.detail.san);
          return { supported, longTasks, maxGap, slow, thinkingSeen, moves };
        });
        assert.ok(measured.thinkingSeen, `the engine was thinking: ${JSON.stringify(measured)}`);
        const passed = measured.supported ? measured.longTasks.every((d) => d <= 50) : timerPassed(measured);
        if (passed) break;
        await driver.evaluate(() => document.querySelector("homeostat-chess").setPlayer("both"));
      }
      if (measured.supported) assert.deepEqual(measured.longTasks.filter((d) => d > 50), [], "long tasks");
      else assert.ok(timerPassed(measured), `late timer ticks, in ms: ${measured.slow} (largest gap ${measured.maxGap.toFixed(0)} ms)`);
      await driver.evaluate(() => document.querySelector("homeostat-chess").setPlayer("both"));
    });

    test("a reload restores the game and the settings", async () => {
      const before = await setUpPage({ settings: { ...QUIET, boardTheme: "ocean" } });
      const played = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        for (const m of ["e4", "c5", "Nf3", "d6"]) el.move(m);
        return el.fen;
      });
      assert.notEqual(played, before);
      await driver.open(`${server.origin}/`);
      await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
      const restored = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        return { fen: el.fen, theme: el.settings.boardTheme };
      });
      assert.equal(restored.fen, played);
      assert.equal(restored.theme, "ocean");
      // The opening's name follows the board: the book file is fetched once the board is playable.
      const opening = await driver.waitFor(() => {
        const text = document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-field=opening]").textContent;
        return text || null;
      });
      assert.match(opening, /Sicilian/);
      await driver.screenshot(path.join(SCREENSHOT_DIR, `${engine}-player.png`));
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("embeds from another folder under a strict Content-Security-Policy", async () => {
      const embedServer = await startServer({
        mounts: { "/": FIXTURES_DIR, "/lib/": WWW_DIR },
        headers: { "content-security-policy": CSP },
      });
      try {
        await driver.open(`${embedServer.origin}/embed.html`);
        await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
        await driver.evaluate(() => {
          window.events = [];
          const el = document.querySelector("homeostat-chess");
          el.applySettings({ book: false, analysis: false, think: "300" });
          el.addEventListener("move", (event) => window.events.push(event.detail));
        });
        await clickSquare("f2");
        await clickSquare("f3");
        await driver.waitFor(() => window.events.some((e) => e.by === "engine"), { timeout: 20_000 });
        const page = await driver.evaluate(() => {
          const el = document.querySelector("homeostat-chess");
          return {
            violations: window.cspViolations,
            styled: getComputedStyle(el.shadowRoot.querySelector(".layout")).display,
            first: window.events[0].san,
          };
        });
        assert.deepEqual(page.violations, []);
        assert.equal(page.styled, "grid");
        assert.equal(page.first, "f3");
      } finally {
        await embedServer.close();
      }
    });
  });
}
