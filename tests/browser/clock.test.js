// Clocks in Chromium, Firefox and WebKit: a short game against the engine (clock="0.05+0", three seconds each)
// ends on time with the right result and the reason "time", shown on the board and in the clocks; a bad clock
// attribute fires one error and leaves the game without clocks; the settings' presets start clocks; the new-game
// dialog sets a clock for the game it starts (a custom one that does not read keeps the dialog open), and the PGN
// says the time control.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

const WASM = path.join(WWW_DIR, "pkg", "homeostat_web_bg.wasm");

/** Runs in the page: the clocks and the game's state. */
function clocks() {
  const el = document.querySelector("homeostat-chess");
  const root = el.shadowRoot;
  const field = (name) => root.querySelector(`[data-field=${name}]`);
  const clock = (where) => ({ text: field(`${where}-clock`).textContent, hidden: field(`${where}-clock`).hidden, ...field(`${where}-clock`).dataset });
  return {
    ply: el.game?.ply() ?? 0,
    status: el.status,
    top: clock("top"),
    bottom: clock("bottom"),
    banner: root.querySelector(".board-banner").textContent,
    statusLine: field("status").textContent,
    announce: field("announce").textContent,
    errors: window.__playerErrors,
    gameovers: window.__gameovers ?? [],
    undoDisabled: root.querySelector('.toolbar [data-action="undo"]').disabled,
  };
}

for (const engine of enginesUnderTest()) {
  describe(`clocks in ${engine}`, () => {
    let server;
    let driver;
    /** Opens the player; what it shows, and `openedIn`: the whole seconds, rounded up, from leaving the page to this reading. */
    const open = async (query) => {
      const opening = Date.now();
      await driver.open(`${server.origin}/embed.html?${new URLSearchParams(query)}`);
      await driver.waitForReady();
      await driver.evaluate(() => {
        window.__gameovers = [];
        document.querySelector("homeostat-chess").addEventListener("gameover", (event) => window.__gameovers.push(event.detail));
      });
      const shown = await driver.evaluate(clocks);
      return { ...shown, openedIn: Math.ceil((Date.now() - opening) / 1000) };
    };

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

    test('clock="0.05+0": the person runs out of time and loses; the reason is "time"', { timeout: 60_000 }, async () => {
      const start = await open({ clock: "0.05+0", player: "white", level: "1" });
      assert.deepEqual([start.top.text, start.bottom.text], ["0:03.0", "0:03.0"]);
      assert.equal(start.top.hidden, false);
      assert.equal(await driver.evaluate(() => document.querySelector("homeostat-chess").move("e4")), true);
      await driver.waitFor(() => document.querySelector("homeostat-chess").game.ply() >= 2, { timeout: 20_000 });
      const running = await driver.evaluate(clocks);
      assert.equal(running.bottom.running, "true", "White's clock runs after the engine's reply");
      const over = await driver.waitFor(() => (document.querySelector("homeostat-chess").status.over ? true : null), { timeout: 20_000 });
      assert.ok(over);
      const end = await driver.evaluate(clocks);
      assert.deepEqual(end.status, { over: true, result: "0-1", reason: "time" });
      assert.deepEqual(end.gameovers, [{ result: "0-1", reason: "time" }]);
      assert.equal(end.bottom.text, "0:00.0");
      assert.equal(end.bottom.low, "true", "the warning shows on the flagged clock");
      assert.equal(end.bottom.running, "false");
      assert.match(end.banner, /Black wins · time/);
      assert.match(end.statusLine, /Black wins on time/);
      assert.match(end.announce, /Black wins on time/);
      assert.equal(end.ply, 2);
      assert.equal(end.undoDisabled, true, "a game lost on time is not taken back");
      assert.deepEqual(end.errors, []);
    });

    test("persist: a reload brings the clocks back with the time each side had left", { timeout: 30_000 }, async () => {
      await open({ player: "both" });
      await driver.evaluate(() => localStorage.clear());
      await open({ persist: "timed", clock: "1+0", player: "both" });
      const move = (san) => driver.evaluate((m) => document.querySelector("homeostat-chess").move(m), san);
      assert.equal(await move("e4"), true);
      // Black thinks over two seconds in all, before and after its move's reply.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      assert.equal(await move("e5"), true);
      assert.equal(await move("Nf3"), true);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const before = await driver.evaluate(clocks);
      // Leaving the page stores the running clock's time; the reload shows it, less the time the reload took (the
      // clock ran on meanwhile).
      const back = await open({ persist: "timed", clock: "1+0", player: "both" });
      const seconds = (text) => text.split(":").reduce((total, part) => total * 60 + Number(part), 0);
      assert.equal(back.ply, 3);
      const shown = [before.top, back.top, `${back.openedIn} s away`];
      assert.ok(seconds(back.top.text) <= 58 && seconds(back.top.text) >= seconds(before.top.text) - back.openedIn, JSON.stringify(shown));
      assert.ok(seconds(back.bottom.text) >= 58, JSON.stringify(back.bottom));
      assert.equal(back.top.running, "true", "Black's clock runs on");
      // Another time control starts the clocks afresh: Black's runs from 3:00 as the page opens (by the time it is read,
      // a slow browser's clock may have ticked).
      const other = await open({ persist: "timed", clock: "3+2", player: "both" });
      assert.equal(other.bottom.text, "3:00");
      assert.ok(seconds(other.top.text) <= 180 && seconds(other.top.text) >= 180 - other.openedIn, JSON.stringify([other.top, `${other.openedIn} s to open`]));
      await driver.evaluate(() => localStorage.clear());
    });

    test("a bad clock attribute fires one error and the game has no clocks", { timeout: 30_000 }, async () => {
      const shown = await open({ clock: "five minutes", player: "both" });
      assert.equal(shown.errors.length, 1, JSON.stringify(shown.errors));
      assert.match(shown.errors[0], /clock="five minutes": write minutes and an increment/);
      assert.equal(shown.top.hidden, true);
      assert.equal(shown.bottom.hidden, true);
    });

    test("the new-game dialog starts a game with the clock chosen there; PGN carries its TimeControl", { timeout: 30_000 }, async () => {
      await open({ player: "both" });
      const untimed = await driver.evaluate(() => document.querySelector("homeostat-chess").pgn);
      assert.match(untimed, /\[TimeControl "-"\]/);
      const refused = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const dialog = el.shadowRoot.querySelector("[data-dialog=new]");
        el.runAction("new");
        const form = dialog.querySelector("form");
        form.elements.mode.value = "hvh";
        form.elements.clock.value = "custom";
        form.elements.clock.dispatchEvent(new Event("change", { bubbles: true }));
        form.elements.clockCustom.value = "soon";
        dialog.querySelector("button[value=start]").click();
        return { open: dialog.open, error: dialog.querySelector("[data-field=clock-error]").textContent, clock: el.settings.clock };
      });
      assert.equal(refused.open, true, "the dialog stays open");
      assert.match(refused.error, /Write minutes and an increment/);
      assert.equal(refused.clock, "");
      const started = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const dialog = el.shadowRoot.querySelector("[data-dialog=new]");
        dialog.querySelector("form").elements.clockCustom.value = "2+1";
        dialog.querySelector("button[value=start]").click();
        return { open: dialog.open, clock: el.settings.clock };
      });
      assert.deepEqual(started, { open: false, clock: "2+1" });
      await driver.waitFor(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-field=bottom-clock]").textContent === "2:00");
      const pgn = await driver.evaluate(() => document.querySelector("homeostat-chess").pgn);
      assert.match(pgn, /\[TimeControl "120\+1"\]/);
      // The settings dialog shows the clock the new game set.
      const shown = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        el.runAction("settings");
        const form = el.shadowRoot.querySelector("[data-dialog=settings] form");
        const value = [form.elements.clock.value, form.elements.clockCustom.value];
        el.shadowRoot.querySelector("[data-dialog=settings]").close();
        return value;
      });
      assert.deepEqual(shown, ["custom", "2+1"]);
    });

    test("the settings' preset starts clocks for the game not yet begun; the low-time warning is announced", { timeout: 30_000 }, async () => {
      await open({ player: "both" });
      const set = await driver.evaluate(() => {
        const el = document.querySelector("homeostat-chess");
        const root = el.shadowRoot;
        el.runAction("settings");
        const select = root.querySelector("[data-dialog=settings] select[name=clock]");
        select.value = "3+2";
        select.dispatchEvent(new Event("change", { bubbles: true }));
        root.querySelector("[data-dialog=settings]").close();
        return el.settings.clock;
      });
      assert.equal(set, "3+2");
      // The clocks load on demand, then show.
      await driver.waitFor(() => document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-field=top-clock]").textContent === "3:00");
      // Low time: the test moves White's time near the end and lets the view tick.
      const warned = await driver.evaluate(async () => {
        const el = document.querySelector("homeostat-chess");
        const root = el.shadowRoot;
        // Everything the live region says, as other announcements (the board's focus square) may follow.
        const said = [];
        const region = root.querySelector("[data-field=announce]");
        new MutationObserver(() => said.push(region.textContent)).observe(region, { childList: true, characterData: true, subtree: true });
        el.move("e4");
        el.move("e5");
        const clock = el.controller.clock;
        clock.stop();
        clock.left.w = 15_000;
        clock.run("w");
        await new Promise((resolve) => setTimeout(resolve, 400));
        return { low: root.querySelector("[data-field=bottom-clock]").dataset.low, said };
      });
      assert.equal(warned.low, "true");
      assert.equal(warned.said.filter((text) => /^Low time: 1[45] seconds left$/.test(text)).length, 1, JSON.stringify(warned.said));
    });
  });
}
