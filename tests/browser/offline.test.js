// Offline play and installing: after one visit to the standalone page its service worker holds the whole build, so
// with the server gone the page loads, the engine answers a move and the editor opens (and the checkers page, once
// visited, loads too); the web manifest and its
// icons load; a new build deployed replaces the cached one; an embedded player (embed.html) registers no service
// worker. The server is shut down rather than
// the browser switched offline, so the test means the same in every engine.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { appendFile, cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { enginesUnderTest, launch } from "./drivers.js";
import { startServer, WWW_DIR } from "./server.js";

const WASM = path.join(WWW_DIR, "pkg", "homeostat_web_bg.wasm");
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

for (const engine of enginesUnderTest()) {
  describe(`offline and install in ${engine}`, () => {
    let driver;
    let build;

    before(
      async () => {
        assert.ok(existsSync(WASM), `${WASM} is missing: run \`make wasm\` first`);
        // The build list must match the files as they are now.
        execFileSync(process.execPath, [path.join(ROOT, "tools/offline-build.mjs")]);
        build = JSON.parse(readFileSync(path.join(WWW_DIR, "pkg", "build.json"), "utf8"));
        driver = await launch(engine);
      },
      { timeout: 60_000 },
    );

    after(async () => {
      await driver?.close();
    });

    test("after one visit the page loads, plays and edits with the server gone", { timeout: 90_000 }, async () => {
      const server = await startServer();
      let closed = false;
      try {
        await driver.open(`${server.origin}/`);
        await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
        const manifest = await driver.evaluate(async () => {
          const link = document.querySelector('link[rel="manifest"]');
          const data = await (await fetch(link.href)).json();
          const icons = await Promise.all(data.icons.map(async (icon) => (await fetch(new URL(icon.src, link.href))).ok));
          return { name: data.short_name, display: data.display, icons };
        });
        assert.deepEqual(manifest, { name: "Homeostat", display: "standalone", icons: [true, true, true, true] });
        // The worker takes the page over once it has cached the build.
        const cached = await driver.waitFor(
          async (id) => {
            if (!navigator.serviceWorker.controller) return null;
            const cache = await caches.open(`homeostat-${id}`);
            return (await cache.keys()).length;
          },
          { timeout: 30_000, interval: 200 },
          build.id,
        );
        assert.ok(cached >= build.files.length, `${cached} of ${build.files.length} files cached`);
        // The test server's own error collector is not part of the site: the test caches it beside the build.
        await driver.evaluate((id) => caches.open(`homeostat-${id}`).then((cache) => cache.add("/__page-errors.js")), build.id);
        // The checkers page is not part of the install; one visit keeps its files.
        await driver.open(`${server.origin}/checkers.html`);
        await driver.waitFor(() => document.querySelector("homeostat-checkers")?.dataset.state === "ready", { timeout: 30_000 });
        const kept = await driver.waitFor(
          async (id, files) => {
            const cache = await caches.open(`homeostat-${id}`);
            const missing = [];
            for (const file of files) if (!(await cache.match(file))) missing.push(file);
            return missing.length ? null : files.length;
          },
          { timeout: 30_000, interval: 200 },
          build.id,
          build.onVisit,
        );
        assert.equal(kept, build.onVisit.length);
        await server.close();
        closed = true;

        await driver.open(`${server.origin}/`);
        await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready", { timeout: 30_000 });
        const played = await driver.evaluate(() => {
          const el = document.querySelector("homeostat-chess");
          el.setAttribute("player", "white");
          el.setAttribute("level", "1");
          el.newGame();
          return el.move("e4");
        });
        assert.equal(played, true);
        await driver.waitFor(() => document.querySelector("homeostat-chess").game.ply() >= 2, { timeout: 30_000 });
        const opening = await driver.waitFor(() => {
          const text = document.querySelector("homeostat-chess").shadowRoot.querySelector("[data-field=opening]").textContent;
          return /^[A-E]\d\d · /.test(text) && text;
        });
        assert.ok(opening, "the opening book comes from the cache too");
        const editor = await driver.evaluate(async () => {
          const el = document.querySelector("homeostat-chess");
          await el.openEditor();
          return el.shadowRoot.querySelector("[data-dialog=editor]")?.open ?? false;
        });
        assert.equal(editor, true, "the on-demand editor loads from the cache");
        assert.deepEqual(await driver.evaluate(() => window.__playerErrors), []);
        await driver.open(`${server.origin}/checkers.html`);
        await driver.waitFor(() => document.querySelector("homeostat-checkers")?.dataset.state === "ready", { timeout: 30_000 });
        assert.deepEqual(await driver.evaluate(() => window.__playerErrors), [], "the checkers page offline");
      } finally {
        if (!closed) await server.close();
      }
    });

    test("a new build deployed replaces the cached one", { timeout: 90_000 }, async () => {
      // A copy of the site, so the test can deploy a changed build.
      const site = await mkdtemp(path.join(os.tmpdir(), "homeostat-site-"));
      await cp(WWW_DIR, site, { recursive: true });
      const deploy = () => {
        execFileSync(process.execPath, [path.join(ROOT, "tools/offline-build.mjs"), site]);
        return JSON.parse(readFileSync(path.join(site, "pkg", "build.json"), "utf8"));
      };
      const first = deploy();
      const server = await startServer({ mounts: { "/": site } });
      let closed = false;
      const cachesNow = () => driver.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("homeostat-")).sort());
      try {
        await driver.open(`${server.origin}/`);
        await driver.waitFor(async () => navigator.serviceWorker.controller?.scriptURL ?? null, { timeout: 30_000, interval: 200 });
        assert.deepEqual(await cachesNow(), [`homeostat-${first.id}`]);
        await appendFile(path.join(site, "main.js"), "\n// build two\n");
        const second = deploy();
        assert.notEqual(second.id, first.id);
        // The next visit registers the new build's worker, which caches it and drops the old cache.
        await driver.open(`${server.origin}/`);
        const url = await driver.waitFor(
          async (id) => {
            const url = navigator.serviceWorker.controller?.scriptURL ?? "";
            const names = (await caches.keys()).filter((name) => name.startsWith("homeostat-"));
            return url.endsWith(`build=${id}`) && names.length === 1 ? url : null;
          },
          { timeout: 30_000, interval: 200 },
          second.id,
        );
        assert.ok(url);
        assert.deepEqual(await cachesNow(), [`homeostat-${second.id}`]);
        await driver.evaluate((id) => caches.open(`homeostat-${id}`).then((cache) => cache.add("/__page-errors.js")), second.id);
        await server.close();
        closed = true;
        await driver.open(`${server.origin}/`);
        await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready", { timeout: 30_000 });
        const main = await driver.evaluate(async () => (await fetch("main.js")).text());
        assert.match(main, /build two/, "offline, the new build answers");
      } finally {
        if (!closed) await server.close();
        await rm(site, { recursive: true, force: true });
      }
    });

    test("an embedded player registers no service worker", { timeout: 60_000 }, async () => {
      // A fresh origin (another port), so the standalone page's registration above does not count.
      const server = await startServer();
      try {
        await driver.open(`${server.origin}/embed.html?player=both`);
        await driver.waitFor(() => document.querySelector("homeostat-chess")?.dataset.state === "ready");
        await driver.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1500)));
        const registrations = await driver.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
        assert.equal(registrations, 0);
      } finally {
        await server.close();
      }
    });
  });
}
