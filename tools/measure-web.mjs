// Measures the browser build: the gzip size of everything the page transfers, the time until the
// board is playable on loopback, and the engine's bench in a browser (wasm) against the native bench.
//
//   node tools/measure-web.mjs [--depth N] [--runs N] [--nnue] [--browser chromium|firefox|webkit]
//
// The browser is Chromium unless --browser names another (WebKit needs an X display: run under `xvfb-run -a`).
//
// With --nnue both benches evaluate with the net (level 8's evaluation): the wasm one with pkg/homeostat.nnue, the
// native one with its embedded copy of the same file (`homeostat bench N nnue`).
// Needs `make wasm` (www/pkg) and the browser; builds the native `homeostat` binary with cargo.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { ENGINES, launch } from "../tests/browser/drivers.js";
import { startServer, WWW_DIR } from "../tests/browser/server.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const FIXTURES = path.join(ROOT, "tests/browser/fixtures");
/** The page's gzip budget in bytes. */
const BUDGET = 256 * 1024;

/**
 * The value after `--name`, or the fallback.
 * @param {string} name
 * @param {number} fallback
 */
function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive whole number`);
  return value;
}

const depth = option("depth", 11);
/** The native binary, whose `bench DEPTH` searches the same positions as the wasm `bench`. */
const BENCH_BIN = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "release/homeostat");
const runs = option("runs", 3);
const nnue = process.argv.includes("--nnue");
const browserAt = process.argv.indexOf("--browser");
const browser = browserAt >= 0 ? process.argv[browserAt + 1] : "chromium";
if (!ENGINES.includes(browser)) throw new Error(`--browser needs one of ${ENGINES.join(", ")}`);
const BROWSER_NAME = { chromium: "Chromium", firefox: "Firefox", webkit: "WebKit" }[browser];

/** CPU seconds used by this process's finished children (Linux: /proc/self/stat, in 1/100 s ticks). */
function childCpuSeconds() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  // The rest starts at field 3 (state), so cutime (field 16) and cstime (17) are at 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** One run of the native bench example: `{nodes, nps, cpuNps}` (the last from CPU time, not wall time). */
function nativeBench() {
  const before = childCpuSeconds();
  const out = execFileSync(BENCH_BIN, ["bench", String(depth), ...(nnue ? ["nnue"] : [])], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const cpu = childCpuSeconds() - before;
  const match = /Nodes searched: (\d+)\s+Nodes\/second: (\d+)/.exec(out);
  if (!match) throw new Error(`unexpected bench output: ${out}`);
  return { nodes: Number(match[1]), nps: Number(match[2]), cpuNps: Number(match[1]) / Math.max(cpu, 0.01) };
}

/**
 * Runs the bench `runs` times in the browser (the package's `bench` export, in a worker) and
 * natively, alternating so that other load on the machine hits both alike.
 */
async function benchBoth() {
  const server = await startServer({ mounts: { "/": WWW_DIR, "/test/": FIXTURES } });
  const driver = await launch(browser);
  try {
    await driver.open(`${server.origin}/test/engine.html`);
    await driver.waitFor(() => window.fixtureReady === true);
    const pairs = [];
    for (let i = 0; i < runs; i++) {
      const wasm = await driver.evaluate(async (d, nnue) => {
        // In a worker, like the engine's searches; a shorter bench first lets the browser's
        // optimising compiler take over, as it has in a game after the first moves.
        const net = nnue ? `new Uint8Array(await (await fetch("${location.origin}/pkg/homeostat.nnue")).arrayBuffer())` : "undefined";
        const source = `import init, { bench } from "${location.origin}/pkg/homeostat_web.js";
          await init(); const net = ${net}; bench(${Math.max(1, d - 2)}, net); postMessage(bench(${d}, net));`;
        const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
        const worker = new Worker(url, { type: "module" });
        const result = await new Promise((resolve, reject) => {
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message));
        });
        worker.terminate();
        return result;
      }, depth, nnue);
      const native = nativeBench();
      console.log(`  run ${i + 1}: wasm ${wasm.nps} nps, native ${native.nps} nps, ratio ${(wasm.nps / native.nps).toFixed(2)}`);
      pairs.push({ wasm, native });
    }
    return pairs;
  } finally {
    await driver.close();
    await server.close();
  }
}

/**
 * Every file the page can load below www/ (type declarations excluded), with its gzip size.
 * @param {string} dir
 * @returns {{file: string, raw: number, gzip: number}[]}
 */
function pageFiles(dir = WWW_DIR) {
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) files.push(...pageFiles(file));
    else if (!name.endsWith(".d.ts")) {
      const bytes = readFileSync(file);
      files.push({ file: path.relative(WWW_DIR, file), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    }
  }
  return files;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const files = pageFiles();
for (const { file, raw, gzip } of files) console.log(`${file.padEnd(40)} ${kb(raw).padStart(10)} ${kb(gzip).padStart(10)} gzip`);
const total = files.reduce((sum, f) => sum + f.gzip, 0);
// No page loads all of www/ (two games, on-demand modules); `make dist` checks the budget of what a chess game loads.
console.log(`site total: ${kb(total)} gzip (everything in www/; the player's own budget, ${kb(BUDGET)}, is checked by make dist)`);

/**
 * The bench in Node's V8 (the engine Chromium uses), timed by this process's CPU time, which
 * other load on the machine hardly changes: `{nodes, cpuNps}`.
 */
async function nodeCpuBench() {
  const pkg = await import(new URL("../www/pkg/homeostat_web.js", import.meta.url).href);
  pkg.initSync({ module: readFileSync(path.join(WWW_DIR, "pkg/homeostat_web_bg.wasm")) });
  const net = nnue ? readFileSync(path.join(WWW_DIR, "pkg/homeostat.nnue")) : undefined;
  pkg.bench(Math.max(1, depth - 2), net);
  const start = process.cpuUsage();
  const result = pkg.bench(depth, net);
  const used = process.cpuUsage(start);
  return { nodes: result.nodes, cpuNps: result.nodes / ((used.user + used.system) / 1e6) };
}

/**
 * The value a fraction `q` of the way through the sorted values (linear between neighbours).
 * @param {number[]} values
 * @param {number} q 0 to 1
 */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

/**
 * The middle value.
 * @param {number[]} values
 */
function median(values) {
  return quantile(values, 0.5);
}

/**
 * Loads index.html `runs` times in the browser over loopback and returns the milliseconds from
 * navigation start until the element marked itself playable (wasm loaded, board drawn).
 */
async function timeToInteractive() {
  const server = await startServer({ mounts: { "/": WWW_DIR } });
  const driver = await launch(browser);
  const times = [];
  try {
    for (let i = 0; i < runs; i++) {
      await driver.open(`${server.origin}/index.html?run=${i}`);
      await driver.waitFor(() => performance.getEntriesByName("homeostat-ready").length > 0);
      times.push(await driver.evaluate(() => performance.getEntriesByName("homeostat-ready")[0].startTime));
    }
  } finally {
    await driver.close();
    await server.close();
  }
  return times;
}

const tti = await timeToInteractive();
console.log(`time to interactive (index.html, ${BROWSER_NAME}, loopback): median ${median(tti).toFixed(0)} ms of ${tti.map((t) => t.toFixed(0)).join(", ")}`);

execFileSync("cargo", ["build", "--quiet", "--release", "-p", "homeostat-uci"], { cwd: ROOT, stdio: "inherit" });
console.log(`bench depth ${depth}${nnue ? " with the net" : ""}, ${runs} alternating runs:`);
const pairs = await benchBoth();
const best = (side) => Math.max(...pairs.map((p) => p[side].nps));
console.log(`  wasm (${BROWSER_NAME}): best ${best("wasm").toLocaleString("en")} nps, ${pairs[0].wasm.nodes} nodes`);
console.log(`  native:          best ${best("native").toLocaleString("en")} nps, ${pairs[0].native.nodes} nodes`);
const ratios = pairs.map((p) => p.wasm.nps / p.native.nps);
console.log(`  ratio wasm/native: median ${median(ratios).toFixed(3)}, quartiles ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}, of bests ${(best("wasm") / best("native")).toFixed(3)} (target 0.85)`);
if (pairs.some((p) => p.wasm.nodes !== p.native.nodes)) console.log("  warning: the node counts differ, so the two builds search differently");

const cpuRatios = [];
for (let i = 0; i < runs; i++) {
  const wasm = await nodeCpuBench();
  const native = nativeBench();
  cpuRatios.push(wasm.cpuNps / native.cpuNps);
  console.log(`  CPU time, run ${i + 1}: wasm (Node V8) ${Math.round(wasm.cpuNps)} nps, native ${Math.round(native.cpuNps)} nps`);
}
console.log(`  ratio by CPU time (Node V8 / native): median ${median(cpuRatios).toFixed(2)}`);
