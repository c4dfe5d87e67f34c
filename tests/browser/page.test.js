// End-to-end test of the page in www/: it loads, shows the player with a board, and the wasm module works.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

/** Screenshots of each engine's page, for people to look at; ignored by git. */
const SCREENSHOT_DIR = fileURLToPath(new URL("../../target/browser-screenshots/", import.meta.url));

const WASM = path.join(WWW_DIR, "pkg", "homeostat_web_bg.wasm");

for (const engine of enginesUnderTest()) {
  describe(`page in ${engine}`, () => {
    let server;
    let driver;

    before(
      async () => {
        assert.ok(existsSync(WASM), `${WASM} is missing: run \`make build\` first`);
        await mkdir(SCREENSHOT_DIR, { recursive: true });
        server = await startServer();
        driver = await launch(engine);
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
      await server?.close();
    });

    test("loads the page with the player and no errors", async () => {
      await driver.open(`${server.origin}/`);
      const state = await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state);
      assert.equal(state, "ready");
      const page = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const canvas = el.shadowRoot.querySelector(".board-canvas");
        return {
          title: document.title,
          brand: document.querySelector(".brand").textContent.trim(),
          board: canvas.getBoundingClientRect().width,
          styled: getComputedStyle(el.shadowRoot.querySelector(".layout")).display,
        };
      });
      assert.match(page.title, /Homeostat/);
      assert.equal(page.brand, "Homeostat");
      assert.ok(page.board > 200, `board is ${page.board}px wide`);
      assert.equal(page.styled, "grid", "the element's stylesheet applies inside its shadow root");
      await driver.screenshot(path.join(SCREENSHOT_DIR, `${engine}-page.png`));
      assert.deepEqual(await driver.pageErrors(), []);
    });

    test("the engine's wasm module counts from a FEN and throws an Error for a bad one", async () => {
      const answer = await driver.evaluate(async (kiwipete) => {
        const wasm = await import("./pkg/homeostat_web.js");
        await wasm.default();
        let error = null;
        try {
          wasm.perft("not a position", 1);
        } catch (err) {
          error = { isError: err instanceof Error, message: err.message };
        }
        return { nodes: wasm.perft(kiwipete, 2), error };
      }, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
      assert.equal(answer.nodes, 2039);
      assert.equal(answer.error?.isError, true);
      assert.ok(answer.error.message.length > 0);
    });
  });
}
