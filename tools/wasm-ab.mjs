// Two builds of the engine's wasm package timed against each other in one browser page: the bench with the net in a
// worker, as the page's engine runs, the two packages taking turns so that the machine's other load hits both alike.
//
//   node tools/wasm-ab.mjs OLD_WWW NEW_WWW [--browser chromium|firefox|webkit] [--depth 10] [--runs 21]
//
// OLD_WWW and NEW_WWW are folders holding a pkg/ as `make wasm` writes it (copy www/pkg aside before rebuilding).
// Prints each run's speeds and the median of new/old with its quartiles. Both must search the same tree: the script
// stops when their node counts differ. WebKit needs an X display (`xvfb-run -a`).

import { fileURLToPath } from "node:url";
import { launch } from "../tests/browser/drivers.js";
import { startServer } from "../tests/browser/server.js";

/** A page of the browser tests, only for an origin to start the workers from (its own script is not needed). */
const FIXTURES = fileURLToPath(new URL("../tests/browser/fixtures/", import.meta.url));

const args = process.argv.slice(2);
/** The value after `--name`, or the fallback. */
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const browser = option("browser", "chromium");
const depth = Number(option("depth", "10"));
const runs = Number(option("runs", "21"));
const [oldDir, newDir] = args;
if (!oldDir || !newDir || !Number.isInteger(depth) || depth < 1 || !Number.isInteger(runs) || runs < 1) {
  console.error("usage: node tools/wasm-ab.mjs OLD_WWW NEW_WWW [--browser B] [--depth N] [--runs N]");
  process.exit(2);
}

const server = await startServer({ mounts: { "/old/": oldDir, "/new/": newDir, "/test/": FIXTURES } });
const driver = await launch(browser);
try {
  await driver.open(`${server.origin}/test/engine.html`);
  /** One bench of the package under `/dir/pkg/`: {nodes, nps}. */
  const bench = (dir) =>
    driver.evaluate(
      async (d, dir) => {
        // A shorter bench first, so that the browser's optimising compiler has taken over.
        const pkg = `${location.origin}/${dir}/pkg/`;
        const source = `import init, { bench } from "${pkg}homeostat_web.js";
          await init(); const net = new Uint8Array(await (await fetch("${pkg}homeostat.nnue")).arrayBuffer());
          bench(${Math.max(1, d - 2)}, net); postMessage(bench(${d}, net));`;
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
        const result = await new Promise((resolve, reject) => {
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message));
        });
        worker.terminate();
        return result;
      },
      depth,
      dir,
    );
  const ratios = [];
  for (let i = 0; i < runs; i++) {
    // Each goes first in every other run.
    let older, newer;
    if (i % 2 === 0) {
      older = await bench("old");
      newer = await bench("new");
    } else {
      newer = await bench("new");
      older = await bench("old");
    }
    if (older.nodes !== newer.nodes) throw new Error(`the builds searched different trees: ${older.nodes} and ${newer.nodes} nodes`);
    ratios.push(newer.nps / older.nps);
    console.log(`run ${i + 1}: old ${older.nps} nps, new ${newer.nps} nps, new/old ${(newer.nps / older.nps).toFixed(3)}`);
  }
  ratios.sort((a, b) => a - b);
  const at = (q) => ratios[Math.min(runs - 1, Math.floor(q * runs))].toFixed(3);
  console.log(`${browser}, bench ${depth} with the net, ${runs} runs: new/old median ${at(0.5)}, quartiles ${at(0.25)}–${at(0.75)}`);
} finally {
  await driver.close();
  await server.close();
}
