// Writes www/pkg/engine-identity.json: the engine identity of the wasm package just built, as the shared memory
// names it ("Homeostat VERSION bench NODES": the workspace version and the `bench` node count with the net, the
// evaluation of the full-strength searches the memory is for; `homeostat bench 9 nnue` natively). The player
// submits to a memory only when the memory serves this identity (extras/memory.js). The bench runs in the built
// wasm itself with the net file beside it, so the count is the package's own, not assumed equal to a native build's.
//
//   node tools/engine-identity.mjs        (run by `make wasm`)

import { readFile, writeFile } from "node:fs/promises";

const ROOT = new URL("../", import.meta.url);
const PKG = new URL("www/pkg/", ROOT);

const cargo = await readFile(new URL("Cargo.toml", ROOT), "utf8");
const version = /\[workspace\.package\][^[]*?\bversion\s*=\s*"([^"]+)"/.exec(cargo)?.[1];
if (!version) throw new Error("no [workspace.package] version in Cargo.toml");

const pkg = await import(new URL("homeostat_web.js", PKG).href);
await pkg.default({ module_or_path: await readFile(new URL("homeostat_web_bg.wasm", PKG)) });
const { nodes } = pkg.bench(undefined, await readFile(new URL("homeostat.nnue", PKG)));
if (!Number.isSafeInteger(nodes) || nodes <= 0) throw new Error(`the bench gave ${nodes} nodes`);

const identity = { engine: `Homeostat ${version} bench ${nodes}`, version, bench: nodes };
await writeFile(new URL("engine-identity.json", PKG), JSON.stringify(identity) + "\n");
console.log(`www/pkg/engine-identity.json: ${identity.engine}`);
