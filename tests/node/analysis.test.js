// The controller's analysis with several lines (MultiPV) on the real engine: three distinct lines with scores,
// depths and SAN, on any position whoever is to move, and play resumes when the analysis stops.

import assert from "node:assert/strict";
import { test } from "node:test";
import { GameController } from "../../www/game/controller.js";
import { loadRules, nodeEngine } from "./engine-node.js";

const rules = await loadRules();

/** Resolves with the first `thinking` detail that `ok` accepts. */
function waitFor(controller, type, ok) {
  return new Promise((resolve) => {
    const listener = (event) => {
      if (!ok(event.detail)) return;
      controller.removeEventListener(type, listener);
      resolve(event.detail);
    };
    controller.addEventListener(type, listener);
  });
}

test("analyse(3) reports three lines on the engine's turn too, and stopAnalysis lets it play", async () => {
  const controller = new GameController({ rules, createEngine: () => nodeEngine(), options: { player: "white", level: 1, book: false } });
  controller.setGame(new rules.Game());
  controller.move("e4");
  controller.analyse(3);
  const seen = await waitFor(controller, "thinking", (d) => d.kind === "analyse" && d.lines?.filter(Boolean).length === 3 && d.depth >= 6);
  const lines = seen.lines;
  assert.equal(new Set(lines.map((l) => l.pv[0])).size, 3, JSON.stringify(lines));
  for (const line of lines) {
    assert.ok(line.pvSan.length >= 1 && line.pvSan.length === line.pv.length);
    assert.ok("cp" in line.score || "mate" in line.score);
    assert.ok(line.depth >= 1);
  }
  assert.equal(controller.game.ply(), 1, "the engine does not move while analysing");
  const played = waitFor(controller, "move", (d) => d.by === "engine");
  controller.stopAnalysis();
  await played;
  assert.equal(controller.game.ply(), 2);
  controller.dispose();
});

test("the clocks stop while analyse() holds the engine back, and run again after", async () => {
  const { ChessClock } = await import("../../www/extras/clock.js");
  const controller = new GameController({
    rules,
    createEngine: () => nodeEngine(),
    options: { player: "white", level: 1, book: false, clock: { baseMs: 60_000, incMs: 0 } },
    Clock: ChessClock,
  });
  controller.setGame(new rules.Game());
  controller.analyse(2);
  controller.move("e4");
  assert.equal(controller.clock.running, null, "no clock runs while analysing");
  controller.stopAnalysis();
  assert.equal(controller.clock.running, "b", "Black's clock runs once the engine may play");
  controller.dispose();
});
