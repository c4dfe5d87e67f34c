// End-to-end tests of the review and analysis panel (www/extras/), in Chromium, Firefox and WebKit: a game with a
// planted blunder is reviewed (from the status panel's after-game button, and by review()) and the blunder marked
// with a move that holds; its annotated PGN reads back with the
// same marks without a search; three MultiPV lines appear with their arrows; a right-button arrow is drawn and
// exported as [%cal].

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

const WASM = path.join(WWW_DIR, "pkg", "homeostat_web_bg.wasm");

/** 3... Nf6?? allows the scholar's mate; g6, Qe7, Qf6 and Nh6 all hold. */
const BLUNDER_PGN = '[Event "Planted blunder"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';
const DEFENCES = ["g6", "Qe7", "Qf6", "Nh6"];

/** Runs in the page: a fresh two-player game with `text` loaded and the events of interest recorded. */
async function setUp(text) {
  const el = document.querySelector("homeostat-chess");
  await el.ready;
  el.applySettings({ player: "both", analysis: false, book: false, orientation: "white" }, false);
  if (text && !el.load(text)) throw new Error(`could not load ${text}`);
  if (!text) el.newGame();
  window.events = [];
  if (!window.recording) {
    window.recording = true;
    for (const type of ["review", "analysis", "error"]) el.addEventListener(type, (event) => window.events.push({ type, detail: event.detail }));
  }
}

/** Presses the right button on one square, moves to another and releases it. */
async function rightDrag(driver, from, to) {
  const point = async (square) =>
    driver.evaluate((square) => {
      const canvas = document.querySelector("homeostat-chess").shadowRoot.querySelector(".board-canvas");
      const c = canvas.getBoundingClientRect();
      const size = c.width / 8;
      return { x: c.left + (square.charCodeAt(0) - 96.5) * size, y: c.top + (8.5 - Number(square[1])) * size };
    }, square);
  const [a, b] = [await point(from), await point(to)];
  if (driver.page) {
    await driver.page.mouse.move(a.x, a.y);
    await driver.page.mouse.down({ button: "right" });
    await driver.page.mouse.move(b.x, b.y, { steps: 5 });
    await driver.page.mouse.up({ button: "right" });
  } else {
    const at = (p) => ({ type: "pointerMove", origin: "viewport", x: Math.round(p.x), y: Math.round(p.y), duration: 30 });
    await driver.pointer([at(a), { type: "pointerDown", button: 2 }, at(b), { type: "pointerUp", button: 2 }]);
  }
}

for (const engine of enginesUnderTest()) {
  describe(`review and analysis in ${engine}`, () => {
    let server;
    let driver;

    before(
      async () => {
        assert.ok(existsSync(WASM), `${WASM} is missing: run \`make wasm\` first`);
        server = await startServer();
        driver = await launch(engine);
        await driver.open(`${server.origin}/`);
        await driver.evaluate(() => localStorage.clear());
        await driver.open(`${server.origin}/`);
        await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
      await server?.close();
    });

    test("a finished game offers its review in the status panel; the button starts it and then goes", { timeout: 60_000 }, async () => {
      await driver.evaluate(setUp, BLUNDER_PGN);
      const prompt = () => {
        const button = document.querySelector("homeostat-chess").shadowRoot.querySelector(".after-game");
        return { hidden: button.hidden, shown: button.getClientRects().length > 0, text: button.textContent };
      };
      assert.deepEqual(await driver.evaluate(prompt), { hidden: false, shown: true, text: "Review the game" });
      await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector(".after-game").click());
      const marks = await driver.waitFor(() => window.events.find((e) => e.type === "review")?.detail.moves.map((m) => m.mark) ?? null, { timeout: 40_000 });
      assert.equal(marks[5], "blunder");
      assert.equal((await driver.evaluate(prompt)).hidden, true, "the review panel is open: the prompt is gone");
      const rematch = await driver.evaluate(() => {
        const button = document.querySelector("homeostat-chess").shadowRoot.querySelector(".rematch");
        return { hidden: button.hidden, shown: button.getClientRects().length > 0, text: button.textContent };
      });
      assert.deepEqual(rematch, { hidden: false, shown: true, text: "Play again" }, "a rematch stays offered beside the review");
      // A game not yet over has no prompt.
      await driver.evaluate(setUp, "1. e4 e5");
      assert.equal((await driver.evaluate(prompt)).hidden, true);
    });

    test("a planted blunder is marked in the list, on the graph, with the better move as an arrow", { timeout: 60_000 }, async () => {
      await driver.evaluate(setUp, BLUNDER_PGN);
      const review = await driver.evaluate(() => document.querySelector("homeostat-chess").review());
      const nf6 = review.moves[5];
      assert.equal(nf6.san, "Nf6");
      assert.equal(nf6.mark, "blunder");
      assert.ok(DEFENCES.includes(nf6.bestSan), `better move ${nf6.bestSan}`);
      assert.ok(nf6.winDrop >= 30);
      assert.ok(review.accuracy.white > review.accuracy.black);
      const shown = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const button = el.shadowRoot.querySelector('.move-list button[data-ply="6"]');
        const event = window.events.find((e) => e.type === "review");
        el.shadowRoot.querySelector('[data-review="next"]').click();
        return {
          label: button.getAttribute("aria-label"),
          glyph: button.querySelector(".review-mark")?.textContent,
          event: event?.detail.moves[5].mark,
          viewPly: el.viewPly,
          arrows: el.boardState.arrows.map((a) => a.from + a.to),
          better: el.shadowRoot.querySelector(".review-better").textContent,
          graphMarks: el.graph.marks.length,
          graphShown: !el.shadowRoot.querySelector(".graph").hidden,
        };
      });
      assert.equal(shown.label, "Nf6, blunder");
      assert.equal(shown.glyph, "??");
      assert.equal(shown.event, "blunder");
      assert.equal(shown.viewPly, 6, "Next mistake shows the blunder");
      assert.ok(shown.arrows.includes(nf6.best.slice(0, 4)), JSON.stringify(shown));
      assert.match(shown.better, new RegExp(`Better: ${nf6.bestSan.replace("+", "\\+")}`));
      assert.ok(shown.graphMarks >= 1 && shown.graphShown);
    });

    test("the annotated PGN reads back with the same marks, without a search", { timeout: 30_000 }, async () => {
      const back = await driver.evaluate(async () => {
        const el = document.querySelector("homeostat-chess");
        const pgn = el.pgn;
        el.setPlayer("both");
        const starts = el.engineStarts;
        el.load(pgn);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const button = el.shadowRoot.querySelector('.move-list button[data-ply="6"]');
        return { pgn, label: button.getAttribute("aria-label"), starts: el.engineStarts - starts, again: el.pgn };
      });
      assert.match(back.pgn.replace(/\n/g, " "), /3\.\.\. Nf6 \$4 \{\[%eval [^\]]+\]\} \(3\.\.\. (g6|Qe7|Qf6|Nh6)/);
      assert.equal(back.label, "Nf6, blunder");
      assert.equal(back.starts, 0, "no engine started for the marks");
      assert.equal(back.again.split("\n\n")[1], back.pgn.split("\n\n")[1], "the move text round-trips");
    });

    test("three MultiPV lines appear with three arrows, the best boldest, and a line's move plays", { timeout: 60_000 }, async () => {
      await driver.evaluate(setUp, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
      // Seen from inside the event that has three lines at depth 6 or more, so arrows and list are its own.
      const seen = await driver.evaluate(
        () =>
          new Promise((resolve) => {
            const el = document.querySelector("homeostat-chess");
            const check = (event) => {
              const lines = event.detail.lines;
              if (lines.length !== 3 || lines[0].depth < 6 || new Set(lines.map((l) => l.pv[0])).size !== 3) return;
              el.removeEventListener("analysis", check);
              resolve({
                lines,
                items: el.shadowRoot.querySelectorAll(".analysis-lines li").length,
                arrows: el.boardState.arrows.map((a) => ({ move: a.from + a.to, weight: a.weight })),
              });
            };
            el.addEventListener("analysis", check);
            el.analyse({ lines: 3 });
          }),
      );
      assert.equal(seen.items, 3);
      assert.equal(new Set(seen.lines.map((l) => l.pv[0])).size, 3);
      for (const line of seen.lines) assert.ok(line.pvSan.length >= 1 && line.depth >= 1 && ("cp" in line.score || "mate" in line.score));
      assert.equal(seen.arrows.length, 3, JSON.stringify(seen.arrows));
      assert.deepEqual(seen.arrows.map((a) => a.move), seen.lines.map((l) => l.pv[0].slice(0, 4)));
      assert.ok(seen.arrows[0].weight > seen.arrows[1].weight && seen.arrows[1].weight > seen.arrows[2].weight);
      const played = await driver.evaluate(async () => {
        const el = document.querySelector("homeostat-chess");
        const first = el.shadowRoot.querySelector(".analysis-lines li .line-move");
        const san = first.textContent;
        first.click();
        const history = el.game.historySan();
        await el.stopAnalysis();
        return { san, last: history.at(-1), arrows: el.boardState.arrows.length };
      });
      assert.equal(played.last, played.san);
      assert.equal(played.arrows, 0, "no line arrows once the analysis stops");
    });

    test("a right-button drag draws an arrow that goes into the exported PGN and back", { timeout: 30_000 }, async () => {
      await driver.evaluate(setUp, "1. e4 e5 *");
      await rightDrag(driver, "g1", "f3");
      await driver.waitFor(() => document.querySelector("homeostat-chess").boardState.arrows.length === 1, { timeout: 5000 });
      const pgn = await driver.evaluate(() => document.querySelector("homeostat-chess").pgn);
      assert.match(pgn, /1\. e4 e5 \{\[%cal Gg1f3\]\}/);
      const back = await driver.evaluate(async (pgn) => {
        const el = document.querySelector("homeostat-chess");
        el.load(pgn);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const arrows = el.boardState.arrows.map((a) => a.from + a.to);
        // A left press clears the drawing.
        const canvas = el.shadowRoot.querySelector(".board-canvas");
        canvas.dispatchEvent(new PointerEvent("pointerdown", { button: 0, bubbles: true, isPrimary: true, clientX: 1, clientY: 1 }));
        canvas.dispatchEvent(new PointerEvent("pointerup", { button: 0, bubbles: true, isPrimary: true, clientX: 1, clientY: 1 }));
        return { arrows, after: el.boardState.arrows.length, pgn: el.pgn };
      }, pgn);
      assert.deepEqual(back.arrows, ["g1f3"]);
      assert.equal(back.after, 0);
      assert.doesNotMatch(back.pgn, /%cal/);
    });

    test("an arrow on the start position goes before the first move and comes back", { timeout: 30_000 }, async () => {
      await driver.evaluate(setUp, "1. e4 e5 *");
      // Back to the start position, as Home or the move list's start does.
      await driver.evaluate(() => document.querySelector("homeostat-chess").history.view(0));
      await rightDrag(driver, "d2", "d4");
      await driver.waitFor(() => document.querySelector("homeostat-chess").boardState.arrows.length === 1, { timeout: 5000 });
      const pgn = await driver.evaluate(() => document.querySelector("homeostat-chess").pgn);
      assert.match(pgn, /\n\{\[%cal Gd2d4\]\} 1\. e4 e5 \*/);
      const back = await driver.evaluate(async (pgn) => {
        const el = document.querySelector("homeostat-chess");
        el.load(pgn);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const atEnd = el.boardState.arrows.length;
        el.history.view(0);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return { atEnd, atStart: el.boardState.arrows.map((a) => a.from + a.to) };
      }, pgn);
      assert.equal(back.atEnd, 0, "the start's arrow is not shown after the moves");
      assert.deepEqual(back.atStart, ["d2d4"]);
    });

    test("the keyboard draws an arrow and a circle from the focus square", { timeout: 30_000 }, async () => {
      await driver.evaluate(setUp, "1. e4 e5 *");
      // Focus from a script (as Tab gives it) puts the focus square on e2.
      await driver.evaluate(() => {
        const canvas = document.querySelector("homeostat-chess").shadowRoot.querySelector(".board-canvas");
        canvas.blur();
        canvas.focus();
      });
      // Where no focus event comes (Firefox under the driver, after earlier clicks), Enter starts the focus square.
      if (!(await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.cursor))) await driver.press("Enter");
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").boardState.cursor), "e2");
      for (const key of ["x", "ArrowUp", "ArrowUp", "x", "x", "x"]) await driver.press(key);
      await driver.waitFor(() => document.querySelector("homeostat-chess").boardState.arrows.length === 2, { timeout: 5000 });
      const pgn = await driver.evaluate(() => document.querySelector("homeostat-chess").pgn);
      assert.match(pgn, /\{\[%cal Ge2e4\] \[%csl Ge4\]\}/);
    });
  });
}
