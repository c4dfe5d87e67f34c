// Renders the app icon www/icons/icon.svg to the PNGs the web manifest and iOS need (192, 512 and 180 px), with
// the Chromium the browser tests use. Run after changing the SVG: `node tools/make-icons.mjs`; the PNGs are kept
// in the repository, so building never needs a browser.

import { readFile } from "node:fs/promises";
import puppeteer from "puppeteer-core";

const ICONS = new URL("../www/icons/", import.meta.url);
const svg = await readFile(new URL("icon.svg", ICONS), "utf8");
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  for (const [size, name] of [[192, "icon-192.png"], [512, "icon-512.png"], [180, "apple-touch-icon.png"]]) {
    await page.setViewport({ width: size, height: size });
    const body = svg.replace("<svg ", `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!doctype html><style>html,body{margin:0}svg{display:block}</style>${body}`);
    await page.screenshot({ path: new URL(name, ICONS).pathname, omitBackground: false });
    console.log(`www/icons/${name}`);
  }
} finally {
  await browser.close();
}
