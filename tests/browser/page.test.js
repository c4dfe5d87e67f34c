// End-to-end test of the page in www/: it loads the wasm module and shows perft(3) of the start position.

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

    test("shows perft(3) = 8902 for the start position", async () => {
      await driver.open(`${server.origin}/`);
      const state = await driver.waitFor(() => {
        const state = document.getElementById("perft-result")?.dataset.state;
        return state !== "loading" && state;
      });
      const text = await driver.evaluate(() => document.getElementById("perft-result").textContent);
      assert.equal(state, "ok", `the page reported: ${text}`);
      assert.equal(text, "perft(3) = 8902");
      const timing = await driver.evaluate(() => document.getElementById("perft-timing").textContent);
      assert.match(timing, /^Computed in \d+\.\d ms/);
      await driver.screenshot(path.join(SCREENSHOT_DIR, `${engine}-perft.png`));
      assert.deepEqual(driver.errors, []);
    });

    test("the wasm module counts from a FEN and throws an Error for a bad one", async () => {
      const answer = await driver.evaluate(async (kiwipete) => {
        const wasm = await import("./pkg/homeostat_web.js");
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
