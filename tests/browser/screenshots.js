// Takes screenshots of the player for people to look at: `node tests/browser/screenshots.js [engine…]`.
// Saves PNGs of a game in progress with the thinking panel, desktop 1280×800 and phone 390×844, under target/screenshots/.

import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { launch } from "./drivers.js";
import { startServer } from "./server.js";

const OUT = fileURLToPath(new URL("../../target/screenshots/", import.meta.url));

/** Opens the page fresh, plays a few moves and waits until the engine is thinking. */
async function gameInProgress(driver, origin, theme) {
  await driver.open(`${origin}/`);
  await driver.evaluate((theme) => {
    localStorage.clear();
    localStorage.setItem("homeostat.page-theme", theme);
    localStorage.setItem("homeostat.settings.v1", JSON.stringify({ think: "10000", level: 8, book: false }));
  }, theme);
  await driver.open(`${origin}/`);
  await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
  await driver.evaluate(() => {
    const el = document.querySelector("homeostat-chess");
    el.setAttribute("player", "both");
    for (const m of ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3"]) el.move(m);
    el.setAttribute("player", "white");
  });
  await driver.waitFor(() => {
    const el = document.querySelector("homeostat-chess");
    return el.thinking && /Considering/.test(el.shadowRoot.querySelector("[data-field=line]").textContent);
  }, { timeout: 20_000 });
  await sleep(2500);
}

/** A short human-vs-human game with the analysis running, ending in mate: check mark, banner and graph. */
async function gameOver(driver, origin) {
  await driver.open(`${origin}/`);
  await driver.evaluate(() => {
    localStorage.clear();
    localStorage.setItem("homeostat.settings.v1", JSON.stringify({ player: "both", analysis: true }));
  });
  await driver.open(`${origin}/`);
  await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
  await sleep(1500);
  for (const move of ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]) {
    await driver.evaluate((m) => document.querySelector("homeostat-chess").move(m), move);
    await sleep(900);
  }
}

/** A game read from an annotated PGN, shown at a move with words, a drawing and a mark: the review panel. */
async function annotatedGame(driver, origin) {
  await driver.open(`${origin}/`);
  await driver.evaluate(() => localStorage.clear());
  await driver.open(`${origin}/`);
  await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
  await driver.evaluate(() => {
    const el = document.querySelector("homeostat-chess");
    el.setAttribute("player", "both");
    el.load(`[Event "Club final"]\n[White "Ada"]\n[Black "Ben"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {The Spanish: White presses on e5 by attacking its defender.} a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Na5 10. Bc2 c5 11. d4 Qc7 12. Nbd2 Bd7 $6 {[%cal Gd4c5,Gd2f1] Slow: the knight was heading for g3 anyway.} (12... Nc6) *`);
  });
  await sleep(800);
  await driver.evaluate(() => document.querySelector("homeostat-chess").history.view(24));
  await sleep(800);
}

/** The player after its engine worker failed to load: the message and the way forward. */
async function engineFailed(driver, origin) {
  await driver.open(`${origin}/`);
  await driver.evaluate(() => localStorage.clear());
  await driver.open(`${origin}/`);
  await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
  await driver.evaluate(() => document.querySelector("homeostat-chess").move("e4"));
  await driver.waitFor(() => !document.querySelector("homeostat-chess").shadowRoot.querySelector(".engine-notice").hidden, { timeout: 20_000 });
  await sleep(3000);
}

/** Resizes the viewport, at twice the pixels on phone widths. */
const resize = (driver, width, height) => driver.resize({ width, height, deviceScaleFactor: width < 500 ? 2 : 1 });

const engines = process.argv.slice(2).length ? process.argv.slice(2) : ["chromium"];
await mkdir(OUT, { recursive: true });
const server = await startServer();
const broken = await startServer({ missing: ["/engine/worker.js"] });
try {
  for (const engine of engines) {
    const driver = await launch(engine);
    try {
      const sizes = engine === "chromium" ? [[1280, 800, "light"], [1280, 800, "dark"], [390, 844, "light"], [390, 844, "dark"]] : [[1280, 800, "light"]];
      for (const [width, height, theme] of sizes) {
        await resize(driver, width, height);
        await gameInProgress(driver, server.origin, theme);
        const file = `${OUT}${engine}-${width}x${height}-${theme}.png`;
        await driver.screenshot(file);
        console.log(file);
      }
      if (engine === "chromium") {
        await resize(driver, 1280, 800);
        await gameOver(driver, server.origin);
        const file = `${OUT}${engine}-1280x800-game-over.png`;
        await driver.screenshot(file);
        console.log(file);
        for (const [width, height] of [[1280, 800], [390, 844]]) {
          await resize(driver, width, height);
          await annotatedGame(driver, server.origin);
          const annotated = `${OUT}${engine}-${width}x${height}-annotated.png`;
          await driver.screenshot(annotated);
          console.log(annotated);
        }
        for (const [width, height] of [[1280, 800], [390, 844]]) {
          await resize(driver, width, height);
          await engineFailed(driver, broken.origin);
          const failed = `${OUT}${engine}-${width}x${height}-engine-failed.png`;
          await driver.screenshot(failed);
          console.log(failed);
        }
      }
      if (driver.errors.length) console.log("page errors:", driver.errors);
    } finally {
      await driver.close();
    }
  }
} finally {
  await server.close();
  await broken.close();
}
