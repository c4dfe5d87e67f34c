#!/usr/bin/env node
// The browser build's engine as a UCI engine: www/pkg's wasm module (the one the page's worker runs) under Node's
// V8, or in a headless browser with --browser, speaking enough UCI for match.py and other GUIs, so the browser build
// can play the native `homeostat` at the same clock and the two be compared (README, "Engine strength").
//
//   node tools/wasm-uci.mjs                      (after `make wasm`)
//   node tools/wasm-uci.mjs --browser chromium   (or firefox: the module in a page the test server serves)
//   python3 match.py --engine1 'node tools/wasm-uci.mjs' --engine2 ./target/release/homeostat --tc 10+0.1 ...
//
// Commands: uci, isready, setoption name Hash value MB, setoption name UseNNUE value true|false (default true: the
// net file beside the module, as the page's worker loads it), ucinewgame, position [startpos | fen FEN] [moves ...],
// go [wtime btime winc binc movetime depth nodes], stop, quit. Commands are handled one after another, so `stop`
// and `isready` are answered once a search ends; games under a clock or a move time need neither. Full strength
// (level 8), no book: the same engine settings as the native binary. In a browser the search's lines are printed
// when it ends (a round trip to the page costs about a millisecond a move).

import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";

const WWW = new URL("../www/", import.meta.url);
const at = process.argv.indexOf("--browser");
const engine = at < 0 ? await nodeEngine() : await browserEngine(process.argv[at + 1] ?? "chromium");

/** The module under Node: searches on this thread, its events as they come. */
async function nodeEngine() {
  const pkg = await import(new URL("pkg/homeostat_web.js", WWW).href);
  await pkg.default({ module_or_path: await readFile(new URL("pkg/homeostat_web_bg.wasm", WWW)) });
  const net = new Uint8Array(await readFile(new URL("pkg/homeostat.nnue", WWW)));
  /** A Searcher with `mb` of table, evaluating with the net at full strength when `nnue`. */
  const create = (mb, nnue) => {
    const searcher = new pkg.Searcher(mb);
    if (nnue) searcher.setNet(net);
    return searcher;
  };
  let searcher = create(16, true);
  return {
    name: "Homeostat (wasm)",
    create: (mb, nnue) => (searcher = create(mb, nnue)),
    newGame: () => searcher.newGame(),
    search: (request, onEvent) => searcher.search(request, onEvent),
    close: async () => {},
  };
}

/** The module in a headless browser's page (the test server serves www/): its events when the search ends. */
async function browserEngine(kind) {
  const { launch } = await import("../tests/browser/drivers.js");
  const { startServer } = await import("../tests/browser/server.js");
  const server = await startServer();
  const driver = await launch(kind);
  // A page of the site with nothing running in it.
  await driver.open(`${server.origin}/pkg/build.json`);
  const create = (mb, nnue) =>
    driver.evaluate(
      async (mb, nnue) => {
        const pkg = (window.homeostatPkg ??= await import("/pkg/homeostat_web.js"));
        await pkg.default();
        window.homeostatNet ??= new Uint8Array(await (await fetch("/pkg/homeostat.nnue")).arrayBuffer());
        window.homeostatSearcher = new pkg.Searcher(mb);
        if (nnue) window.homeostatSearcher.setNet(window.homeostatNet);
        return true;
      },
      mb,
      nnue,
    );
  await create(16, true);
  return {
    name: `Homeostat (wasm in ${kind})`,
    create,
    newGame: () => driver.evaluate(() => window.homeostatSearcher.newGame()),
    search: async (request, onEvent) => {
      const { result, events } = await driver.evaluate((request) => {
        const events = [];
        const result = window.homeostatSearcher.search(request, (event) => event.type === "iteration" && events.push(event));
        return { result, events };
      }, request);
      events.forEach(onEvent);
      return result;
    },
    close: async () => {
      await driver.close();
      await server.close();
    },
  };
}

/** The `go` parameters that become request fields, with their request names. */
const GO_FIELDS = { wtime: "wtimeMs", btime: "btimeMs", winc: "wincMs", binc: "bincMs", movetime: "movetimeMs", depth: "depth", nodes: "nodes" };

let position = { fen: undefined, moves: [] };
/** The options set so far: a change makes a new Searcher with both. */
const settings = { hash: 16, nnue: true };

const say = (line) => process.stdout.write(`${line}\n`);

/** A score as UCI writes it. */
const scoreText = (score) => (score.mate !== undefined ? `mate ${score.mate}` : `cp ${score.cp}`);

/**
 * `position startpos moves e2e4 …` or `position fen <six fields> moves …`.
 * @param {string[]} words the words after `position`
 */
function readPosition(words) {
  const at = words.indexOf("moves");
  const head = at < 0 ? words : words.slice(0, at);
  const moves = at < 0 ? [] : words.slice(at + 1);
  if (head[0] === "startpos") return { fen: undefined, moves };
  if (head[0] === "fen" && head.length > 1) return { fen: head.slice(1).join(" "), moves };
  throw new Error(`position: expected startpos or fen, not '${head.join(" ")}'`);
}

/**
 * Runs `go` and prints the engine's lines and its best move.
 * @param {string[]} words the words after `go`
 */
async function go(words) {
  const request = { ...position, level: 8, useBook: false, purpose: "play" };
  for (let i = 0; i < words.length; i++) {
    const field = GO_FIELDS[words[i]];
    if (field && i + 1 < words.length) request[field] = Number(words[++i]);
  }
  if (request.wtimeMs !== undefined && request.btimeMs === undefined) request.btimeMs = request.wtimeMs;
  if (request.btimeMs !== undefined && request.wtimeMs === undefined) request.wtimeMs = request.btimeMs;
  const onEvent = (event) => {
    if (event.type !== "iteration") return;
    const bound = event.bound === "lower" ? " lowerbound" : event.bound === "upper" ? " upperbound" : "";
    say(
      `info depth ${event.depth} seldepth ${event.seldepth} score ${scoreText(event.score)}${bound} nodes ${event.nodes} ` +
        `nps ${event.nps} hashfull ${event.hashfull} time ${Math.round(event.elapsedMs)} pv ${event.pvUci.join(" ")}`,
    );
  };
  const result = await engine.search(request, onEvent);
  say(`bestmove ${result.best ?? "0000"}${result.ponder ? ` ponder ${result.ponder}` : ""}`);
}

/** Ends the process, closing the browser first. */
async function quit() {
  await engine.close();
  process.exit(0);
}

/** Handles one command line; errors go to the GUI as `info string`. */
async function handle(line) {
  const [command, ...words] = line.trim().split(/\s+/);
  try {
    switch (command) {
      case "uci":
        say(`id name ${engine.name}`);
        say("id author the Homeostat developers");
        say("option name Hash type spin default 16 min 1 max 256");
        say("option name UseNNUE type check default true");
        say("uciok");
        break;
      case "isready":
        say("readyok");
        break;
      case "setoption": {
        const text = words.join(" ");
        const hash = /^name\s+hash\s+value\s+(\d+)$/i.exec(text);
        const nnue = /^name\s+usennue\s+value\s+(true|false)$/i.exec(text);
        if (hash) settings.hash = Math.min(256, Math.max(1, Number(hash[1])));
        else if (nnue) settings.nnue = nnue[1].toLowerCase() === "true";
        else say(`info string option not supported here: ${text}`);
        if (hash || nnue) await engine.create(settings.hash, settings.nnue);
        break;
      }
      case "ucinewgame":
        await engine.newGame();
        break;
      case "position":
        position = readPosition(words);
        break;
      case "go":
        await go(words);
        break;
      case "stop":
      case "":
      case undefined:
        break;
      case "quit":
        await quit();
        break;
      default:
        say(`info string unknown command: ${command}`);
    }
  } catch (err) {
    say(`info string error: ${err?.message ?? err}`);
    if (command === "go") say("bestmove 0000");
  }
}

// One command at a time, in order: a browser's answers come back asynchronously.
let queue = Promise.resolve();
createInterface({ input: process.stdin })
  .on("line", (line) => (queue = queue.then(() => handle(line))))
  .on("close", () => (queue = queue.then(quit)));
