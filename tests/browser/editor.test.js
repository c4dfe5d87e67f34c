// The position editor in Chromium, Firefox and WebKit, driven as a person would: it loads on demand, refuses a
// position with two white kings (the checker's reason in view) and plays from a legal one set up by clicks, drags
// and the keyboard.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

const WASM = path.join(WWW_DIR, "pkg", "homeostat_web_bg.wasm");

/** Runs in the page: the centre of an element in the editor, in viewport coordinates. */
function centre(selector) {
  const el = document.querySelector("homeostat-chess").shadowRoot.querySelector(selector);
  if (!el) throw new Error(`no ${selector} in the editor`);
  el.scrollIntoView({ block: "nearest" });
  const rect = el.getBoundingClientRect();
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** Runs in the page: what the editor shows. */
function editorState() {
  const el = document.querySelector("homeostat-chess");
  const dialog = el.shadowRoot.querySelector("[data-dialog=editor]");
  const check = dialog.querySelector(".editor-check");
  const box = check.getBoundingClientRect();
  return {
    open: dialog.open,
    fen: dialog.querySelector("input[name=fen]").value,
    check: check.textContent,
    error: check.dataset.error,
    checkVisible: box.width > 0 && box.height > 0 && getComputedStyle(check).visibility === "visible",
    e1: dialog.querySelector('[data-index="4"]').getAttribute("aria-label"),
    gameFen: el.fen,
    startFen: el.game.startFen(),
  };
}

for (const engine of enginesUnderTest()) {
  describe(`the position editor in ${engine}`, () => {
    let server;
    let driver;
    const square = (name) => `.editor-square[data-index="${"abcdefgh".indexOf(name[0]) + 8 * (Number(name[1]) - 1)}"]`;
    const click = async (selector) => driver.mouseClick(await driver.evaluate(centre, selector));
    const state = () => driver.evaluate(editorState);

    before(
      async () => {
        assert.ok(existsSync(WASM), `${WASM} is missing: run \`make wasm\` first`);
        server = await startServer();
        driver = await launch(engine);
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
      await server?.close();
    });

    test("refuses two white kings with the reason in view, and plays from a legal position", { timeout: 60_000 }, async () => {
      await driver.open(`${server.origin}/embed.html?player=white&level=1`);
      await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
      assert.equal(await driver.evaluate(() => Boolean(document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-dialog=editor]"))), false, "not loaded at start");
      await click('[data-action="editor"]');
      await driver.waitFor(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-dialog=editor]")?.open === true);
      let shown = await state();
      assert.equal(shown.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "it opens on the game's position");
      assert.equal(shown.e1, "e1, white king");

      // Two white kings, by clicks: empty the board, choose the white king, put it on e1 and c3; a black king on e8.
      await click('[data-edit="clear"]');
      await click('.editor-tool[data-piece="K"]');
      await click(square("e1"));
      await click(square("c3"));
      await click('.editor-tool[data-piece="k"]');
      await click(square("e8"));
      shown = await state();
      assert.equal(shown.fen, "4k3/8/8/8/8/2K5/8/4K3 w - - 0 1");
      assert.equal(shown.check, "Not playable: 2 white kings, a position needs exactly one.");
      assert.equal(shown.error, "true");
      assert.ok(shown.checkVisible, "the reason is on screen");
      await click('[data-edit="play"]');
      shown = await state();
      assert.equal(shown.open, true, "the editor stays open");
      assert.equal(shown.gameFen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "the game is untouched");

      // Drag the second king off the board, and a white queen from the palette to d1.
      const c3 = await driver.evaluate(centre, square("c3"));
      const away = await driver.evaluate(centre, '[data-edit="start"]');
      await driver.mouseDrag(c3, away, 8);
      await driver.mouseDrag(await driver.evaluate(centre, '.editor-tool[data-piece="Q"]'), await driver.evaluate(centre, square("d1")), 8);
      // The keyboard: choose the black pawn, then from e8 one square down and Enter.
      await click('.editor-tool[data-piece="p"]');
      await driver.evaluate((selector) => document.querySelector("homeostat-chess").shadowRoot.querySelector(selector).focus(), square("e8"));
      await driver.press("ArrowDown");
      await driver.press("Enter");
      const said = await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-field=editor-say]").textContent);
      assert.equal(said, "e7: black pawn", "the change is announced");
      await click('input[name="turn"][value="b"]');
      shown = await state();
      assert.equal(shown.fen, "4k3/4p3/8/8/8/8/8/3QK3 b - - 0 1");
      assert.equal(shown.check, "Ready: Black to move.");
      assert.equal(shown.error, "false");

      await click('[data-edit="play"]');
      shown = await state();
      assert.equal(shown.open, false, "the editor closes");
      assert.equal(shown.startFen, "4k3/4p3/8/8/8/8/8/3QK3 b - - 0 1", "the game starts from the position");
      // The engine plays Black, the side to move.
      await driver.waitFor(() => document.querySelector("homeostat-chess").game.ply() >= 1, { timeout: 20_000 });
      assert.deepEqual(await driver.evaluate(() => window.__playerErrors), []);
    });

    test("on a slow network the editor opens once its stylesheet is in, never unstyled", { timeout: 60_000 }, async () => {
      const slow = await startServer({ delays: { "/extras/editor.css": 1500 } });
      try {
        await driver.open(`${slow.origin}/embed.html?player=white&level=1`);
        await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
        await click('[data-action="editor"]');
        await new Promise((resolve) => setTimeout(resolve, 700));
        const early = await driver.evaluate(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-dialog=editor]")?.open ?? false);
        assert.equal(early, false, "not open while its stylesheet is on the way");
        await driver.waitFor(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-dialog=editor]")?.open === true, { timeout: 10_000 });
        const display = await driver.evaluate(() => getComputedStyle(document.querySelector("homeostat-chess").shadowRoot.querySelector(".editor-board")).display);
        assert.equal(display, "grid", "styled when it opens");
      } finally {
        await slow.close();
      }
    });
  });
}
