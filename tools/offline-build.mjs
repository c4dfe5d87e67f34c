// Writes www/pkg/build.json for the standalone page's service worker (www/sw.js): the files of the site it caches
// for offline play (`files`, cached when the worker installs; `onVisit`, the checkers page's, cached the first time
// they are fetched), and a build id hashed from their contents. A deploy with any changed file has a new id, so the
// page registers the worker under a new URL and the worker caches the new build (and drops the old one).
//
//   node tools/offline-build.mjs [SITE]        (run by `make wasm`, so by `make serve` and `make dist` too)
//
// SITE is the site's folder, www/ by default (the browser tests pass a copy).

import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const WWW = process.argv[2] ?? fileURLToPath(new URL("../www/", import.meta.url));
/** What the site serves that a player needs; type declarations and this file itself are left out. */
const KEEP = /\.(html|js|css|svg|png|wasm|nnue|bin|json|webmanifest)$/;
const SKIP = new Set(["pkg/build.json", "sw.js"]);
/** The checkers page's files: the chess page's worker must not download them (checkers has its own wasm module), but
 * keeps them once a visit to the checkers page has fetched them. */
const CHECKERS = /^(checkers\/|pkg-checkers\/|checkers\.html$|homeostat-checkers\.js$)/;

/** Every file under `dir`, relative to www/ with forward slashes, sorted. */
async function walk(dir) {
  const found = [];
  for (const entry of await readdir(path.join(WWW, dir), { withFileTypes: true })) {
    const name = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await walk(name)));
    else if (KEEP.test(name) && !name.endsWith(".d.ts") && !SKIP.has(name)) found.push(name);
  }
  return found.sort();
}

const all = await walk("");
const files = all.filter((name) => !CHECKERS.test(name));
const onVisit = all.filter((name) => CHECKERS.test(name));
const hash = createHash("sha256");
for (const file of all) hash.update(`${file}\0`).update(await readFile(path.join(WWW, file)));
const build = { id: hash.digest("hex").slice(0, 16), files: ["./", ...files], onVisit };
await writeFile(path.join(WWW, "pkg", "build.json"), JSON.stringify(build, null, 1) + "\n");
console.log(`${path.join(WWW, "pkg", "build.json")}: build ${build.id}, ${files.length} files, ${onVisit.length} cached on visit`);
