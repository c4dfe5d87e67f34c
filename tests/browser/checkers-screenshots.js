// Takes screenshots of the checkers page for people to look at: `node tests/browser/checkers-screenshots.js [out-dir]`.
// Saves PNGs (Chromium) of a game in progress with the engine thinking, a capture under way and a finished game, at desktop
// 1280×800 and phone 390×844, light and dark, under target/screenshots/ unless a folder is given.

import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { launch } from "./drivers.js";
import { startServer } from "./server.js";

const OUT = path.resolve(process.argv[2] ?? fileURLToPath(new URL("../../target/screenshots/", import.meta.url)));

/** Opens www/checkers.html in `theme`, ready to play. */
async function openPage(driver, origin, theme) {
  await driver.open(`${origin}/checkers.html`);
  await driver.evaluate((theme) => localStorage.setItem("homeostat.page-theme", theme), theme);
  await driver.open(`${origin}/checkers.html`);
  await driver.waitFor(() => document.querySelector("homeostat-checkers")?.dataset.state === "ready");
}

/** A few opening moves, then the engine (level 8) thinking about White's reply. */
async function thinking(driver, origin, theme) {
  await openPage(driver, origin, theme);
  await driver.evaluate(() => {
    const el = document.querySelector("homeostat-checkers");
    el.setAttribute("player", "both");
    for (const m of ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14"]) el.move(m);
    el.setAttribute("level", "8");
    el.setAttribute("movetime", "20s");
    el.setAttribute("player", "black");
    el.move("15-18");
  });
  await driver.waitFor(() => /Considering/.test(document.querySelector("homeostat-checkers").shadowRoot.querySelector("[data-field=line]").textContent), { timeout: 20_000 });
  await sleep(1500);
}

/** A double capture half made: the piece on its first landing square, the taken man faded, the next target marked. */
async function captureUnderWay(driver, origin, theme) {
  await openPage(driver, origin, theme);
  await driver.evaluate(() => {
    const el = document.querySelector("homeostat-checkers");
    el.setAttribute("player", "both");
    el.setAttribute("fen", "B:W6,15,24,26,K30,32:B1,3,12,K20");
    el.clickSquare(1);
    el.clickSquare(10);
  });
  await sleep(300);
}

/** An engine game played out at level 1 to its end: the result in the status line and the move list. */
async function gameOver(driver, origin, theme) {
  await openPage(driver, origin, theme);
  await driver.evaluate(() => {
    const el = document.querySelector("homeostat-checkers");
    el.setAttribute("think-min", "10ms");
    el.setAttribute("level", "1");
    el.setAttribute("player", "none");
  });
  await driver.waitFor(() => document.querySelector("homeostat-checkers").game.outcome(), { timeout: 60_000, interval: 200 });
  await sleep(300);
}

/** Resizes the viewport, at twice the pixels on phone widths. */
const resize = (driver, width, height) => driver.resize({ width, height, deviceScaleFactor: width < 500 ? 2 : 1 });

await mkdir(OUT, { recursive: true });
const server = await startServer();
const driver = await launch("chromium");
try {
  for (const [width, height, theme] of [[1280, 800, "light"], [1280, 800, "dark"], [390, 844, "light"], [390, 844, "dark"]]) {
    await resize(driver, width, height);
    await thinking(driver, server.origin, theme);
    let file = path.join(OUT, `checkers-${width}x${height}-${theme}.png`);
    await driver.screenshot(file);
    console.log(file);
    await captureUnderWay(driver, server.origin, theme);
    file = path.join(OUT, `checkers-${width}x${height}-${theme}-capture.png`);
    await driver.screenshot(file);
    console.log(file);
    if (theme === "light") {
      await gameOver(driver, server.origin, theme);
      file = path.join(OUT, `checkers-${width}x${height}-${theme}-game-over.png`);
      await driver.screenshot(file);
      console.log(file);
    }
  }
  if (driver.errors.length) console.log("page errors:", driver.errors);
} finally {
  await driver.close();
  await server.close();
}
