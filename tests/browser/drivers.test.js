// Self-test of the driver layer: clicks, drags and keys land where and as asked, in every engine.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch, NO_TOUCH } from "./drivers.js";
import { startServer } from "./server.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/**
 * Asserts that a recorded pointer position is within a pixel of the expected one.
 * @param {{x: number, y: number}} actual
 * @param {{x: number, y: number}} expected
 */
function assertNear(actual, expected) {
  assert.ok(
    Math.abs(actual.x - expected.x) <= 1.5 && Math.abs(actual.y - expected.y) <= 1.5,
    `expected about (${expected.x}, ${expected.y}), got (${actual.x}, ${actual.y})`,
  );
}

for (const engine of enginesUnderTest()) {
  describe(`driver input in ${engine}`, () => {
    let server;
    let driver;

    before(
      async () => {
        server = await startServer({ mounts: { "/": FIXTURES } });
        driver = await launch(engine);
        await driver.open(`${server.origin}/input.html`);
        await driver.waitFor("window.inputReady === true");
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
      await server?.close();
    });

    test("the viewport is 1024 by 768 CSS pixels", async () => {
      assert.deepEqual(await driver.evaluate("[innerWidth, innerHeight]"), [1024, 768]);
    });

    test("click lands at the offset from the element's top-left corner", async () => {
      await driver.evaluate("window.inputLog = []");
      await driver.click("#pad", { x: 30, y: 170 });
      const log = await driver.waitFor(() => window.inputLog.some((e) => e.type === "click") && window.inputLog);
      const down = log.find((e) => e.type === "pointerdown");
      const up = log.find((e) => e.type === "pointerup");
      assertNear(down, { x: 30, y: 170 });
      assertNear(up, { x: 30, y: 170 });
    });

    test("click without an offset lands at the centre", async () => {
      await driver.evaluate("window.inputLog = []");
      await driver.click("#pad");
      const log = await driver.waitFor(() => window.inputLog.some((e) => e.type === "click") && window.inputLog);
      assertNear(log.find((e) => e.type === "pointerdown"), { x: 160, y: 100 });
    });

    test("drag presses at one point, moves with the button held, and releases at another", async () => {
      await driver.evaluate("window.inputLog = []");
      await driver.drag("#pad", { x: 20, y: 20 }, { x: 290, y: 150 });
      const log = await driver.waitFor(() => window.inputLog.some((e) => e.type === "pointerup") && window.inputLog);
      const types = log.map((e) => e.type);
      assert.equal(types[0], "pointerdown");
      assert.ok(types.includes("pointermove"), `no pointermove in ${types.join(" ")}`);
      assertNear(log[0], { x: 20, y: 20 });
      assertNear(log.find((e) => e.type === "pointerup"), { x: 290, y: 150 });
    });

    test("a tap and a finger drag arrive as touch pointer events where they land", async (t) => {
      await driver.evaluate("window.inputLog = []");
      await driver.tap("#pad", { x: 40, y: 60 });
      const tap = await driver.waitFor(() => window.inputLog.some((e) => e.type === "pointerup") && window.inputLog);
      const down = tap.find((e) => e.type === "pointerdown");
      if (down.pointerType !== "touch" && NO_TOUCH[engine]) {
        t.skip(`${engine} cannot be given touch input: ${NO_TOUCH[engine]} (the tap arrived as ${down.pointerType})`);
        return;
      }
      assert.equal(down.pointerType, "touch");
      assertNear(down, { x: 40, y: 60 });
      assertNear(tap.find((e) => e.type === "pointerup"), { x: 40, y: 60 });

      await driver.evaluate("window.inputLog = []");
      await driver.touchDrag("#pad", { x: 20, y: 20 }, { x: 290, y: 150 });
      const log = await driver.waitFor(() => window.inputLog.some((e) => e.type === "pointerup") && window.inputLog);
      const pointer = log.filter((e) => e.type.startsWith("pointer"));
      assert.equal(pointer[0].type, "pointerdown");
      assert.ok(pointer.some((e) => e.type === "pointermove"), `no pointermove in ${pointer.map((e) => e.type).join(" ")}`);
      assert.ok(!pointer.some((e) => e.type === "pointercancel"), "the touch-action: none pad must not cancel the drag");
      assert.deepEqual([...new Set(pointer.map((e) => e.pointerType))], ["touch"]);
      assertNear(pointer[0], { x: 20, y: 20 });
      assertNear(pointer.find((e) => e.type === "pointerup"), { x: 290, y: 150 });
    });

    test("the wheel over a scrolling box arrives as a trusted wheel event before the scroll it causes", async () => {
      await driver.evaluate(() => {
        document.getElementById("scroller").scrollTop = 0;
      });
      await driver.waitFor(() => document.getElementById("scroller").scrollTop === 0);
      await driver.evaluate("window.inputLog = []");
      await driver.wheel("#scroller", 300);
      const log = await driver.waitFor(() => {
        const box = document.getElementById("scroller");
        return box.scrollTop > 0 && window.inputLog.some((e) => e.type === "scroll" && e.scrollTop === box.scrollTop) && window.inputLog;
      });
      const first = log.find((e) => e.type === "wheel" || e.type === "scroll");
      assert.deepEqual(first && { type: first.type, trusted: first.trusted, down: first.deltaY > 0 }, { type: "wheel", trusted: true, down: true });
    });

    test("keys arrive with their KeyboardEvent.key names", async () => {
      await driver.click("#pad", { x: 5, y: 5 });
      await driver.evaluate("window.inputLog = []");
      for (const key of ["ArrowLeft", "a", "Escape", "Enter"]) await driver.press(key);
      const keys = await driver.waitFor(() => {
        const seen = window.inputLog.filter((e) => e.type === "keydown").map((e) => e.key);
        return seen.length >= 4 && seen;
      });
      assert.deepEqual(keys, ["ArrowLeft", "a", "Escape", "Enter"]);
    });

    test("evaluate returns JSON values, awaits promises and reports errors", async () => {
      assert.deepEqual(await driver.evaluate((a, b) => ({ sum: a + b, list: [a, b] }), 2, 3), { sum: 5, list: [2, 3] });
      assert.equal(await driver.evaluate("new Promise((resolve) => setTimeout(() => resolve('late'), 20))"), "late");
      assert.equal(await driver.evaluate("undefined"), null);
      await assert.rejects(driver.evaluate("(() => { throw new Error('boom'); })()"), /boom/);
    });
  });
}
