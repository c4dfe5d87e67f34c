// Game review without a DOM: every position of a game is searched in an engine worker of its own (so the game
// and its engine stay usable), then each move is marked by the drop in the mover's winning chances, with lichess's
// published formulas:
//   Win%      = 50 + 50 · (2 / (1 + e^(−0.00368208 · cp)) − 1)     (cp from the mover's view, capped at ±1000)
//   accuracy% = 103.1668 · e^(−0.04354 · ΔWin%) − 3.1669           (per move, clamped to 0..100)
// A drop of 10 points of Win% or more is an inaccuracy (?!), 20 a mistake (?), 30 a blunder (??). A side's
// accuracy is lichess's game accuracy: the mean of a volatility-weighted mean and a harmonic mean of its moves'
// accuracies (gameAccuracy below). The marks go to PGN as NAGs, [%eval] comments and the better
// move as a variation, and come back from such a PGN without searching again.

/** The marks by least drop, worst first. */
export const THRESHOLDS = [
  ["blunder", 30],
  ["mistake", 20],
  ["inaccuracy", 10],
];

/** NAGs of the marks, and back. */
export const MARK_NAGS = { inaccuracy: 6, mistake: 2, blunder: 4 };
const NAG_MARKS = { 6: "inaccuracy", 2: "mistake", 4: "blunder" };

/** The glyphs shown beside marked moves. */
export const MARK_GLYPHS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** Search per position: deep enough to see a piece hang, short enough for a whole game in seconds. */
export const REVIEW_LIMITS = { level: 8, depth: 10, nodes: 200_000, useBook: false, purpose: "analyse" };

/** Centipawns a mate counts as, and the cap on other scores (lichess caps at ±1000 too). */
const CAP_CP = 1000;

/**
 * A score as centipawns for the winning-chance formula, capped.
 * @param {{cp?: number, mate?: number}} score
 */
export function cappedCp(score) {
  if (score.mate !== undefined) return score.mate > 0 ? CAP_CP : score.mate < 0 ? -CAP_CP : 0;
  return Math.max(-CAP_CP, Math.min(CAP_CP, score.cp ?? 0));
}

/**
 * Winning chances in percent for a score in centipawns.
 * @param {number} cp
 */
export function winPercent(cp) {
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

/**
 * A move's accuracy in percent for a drop of `drop` points of winning chances.
 * @param {number} drop
 */
export function moveAccuracy(drop) {
  return Math.max(0, Math.min(100, 103.1668 * Math.exp(-0.04354 * Math.max(0, drop)) - 3.1669));
}

/**
 * The mark for a drop of winning chances, or null.
 * @param {number} drop
 * @returns {null | "inaccuracy" | "mistake" | "blunder"}
 */
export function markFor(drop) {
  for (const [mark, least] of THRESHOLDS) if (drop >= least) return /** @type {any} */ (mark);
  return null;
}

/** The opposite score. */
const flip = (score) => (score.mate !== undefined ? { mate: -score.mate } : { cp: -score.cp });

/**
 * Marks a game's moves from the evaluations of its positions.
 * @param {object} input
 * @param {string[]} input.sans the moves in SAN
 * @param {boolean} input.whiteFirst whether White plays the first move
 * @param {({cp?: number, mate?: number} | null)[]} input.evals White-view score of each position (index 0 = the
 *   start, i = after i moves); null where unknown
 * @param {({uci: string, san: string, line: string[]} | null)[]} [input.bests] the best move from each position,
 *   with its line in SAN
 * @param {(string | null)[]} [input.played] the moves in UCI, to tell a best move that was played
 * @returns {{moves: {ply: number, san: string, mark: null | string, best: string | null, bestSan: string | null,
 *   bestLine: string[], winDrop: number | null}[], accuracy: {white: number | null, black: number | null}}}
 */
export function markMoves({ sans, whiteFirst, evals, bests = [], played = [] }) {
  const scored = { white: [], black: [] };
  const weights = volatilityWeights(evals);
  const moves = sans.map((san, i) => {
    const white = whiteFirst === (i % 2 === 0);
    const before = evals[i];
    const after = evals[i + 1];
    const best = bests[i] ?? null;
    let winDrop = null;
    if (before && after) {
      const view = (s) => cappedCp(white ? s : flip(s));
      winDrop = Math.max(0, winPercent(view(before)) - winPercent(view(after)));
      scored[white ? "white" : "black"].push([moveAccuracy(winDrop), weights[i]]);
    }
    const playedBest = best && played[i] && best.uci === played[i];
    const mark = winDrop === null || playedBest ? null : markFor(winDrop);
    return {
      ply: i + 1,
      san,
      mark,
      best: best?.uci ?? null,
      bestSan: best?.san ?? null,
      bestLine: best?.line ?? [],
      winDrop: winDrop === null ? null : Math.round(winDrop * 10) / 10,
    };
  });
  const rounded = (moves) => {
    const value = gameAccuracy(moves);
    return value === null ? null : Math.round(value * 10) / 10;
  };
  return { moves, accuracy: { white: rounded(scored.white), black: rounded(scored.black) } };
}

/**
 * How much is at stake at each move, as lichess weighs it: the standard deviation of White's Win% over a window of
 * positions (of max(2, min(8, ⌊moves / 10⌋)) positions, ending just after the move; the first moves share the first
 * window), kept within 0.5 and 12. Unknown evaluations take the last known one.
 * @param {({cp?: number, mate?: number} | null)[]} evals White-view score of each position
 * @returns {number[]} one weight per move
 */
export function volatilityWeights(evals) {
  const moves = evals.length - 1;
  if (moves < 1) return [];
  let last = 50;
  const wins = evals.map((score) => (last = score ? winPercent(cappedCp(score)) : last));
  const size = Math.max(2, Math.min(8, Math.floor(moves / 10)));
  const weights = [];
  for (let i = 0; i < moves; i++) {
    const start = Math.max(0, i + 2 - size);
    const window = wins.slice(start, start + size);
    const mean = window.reduce((a, b) => a + b, 0) / window.length;
    const deviation = Math.sqrt(window.reduce((a, b) => a + (b - mean) ** 2, 0) / window.length);
    weights.push(Math.max(0.5, Math.min(12, deviation)));
  }
  return weights;
}

/**
 * A side's game accuracy from its moves' `[accuracy, weight]` pairs: the mean of their weighted mean and their
 * harmonic mean (each accuracy taken as at least 1 there, so one 0 % move does not make the whole game 0 %), as
 * lichess computes it; null without moves.
 * @param {[number, number][]} moves
 */
export function gameAccuracy(moves) {
  if (!moves.length) return null;
  const weightSum = moves.reduce((sum, [, w]) => sum + w, 0);
  const weighted = moves.reduce((sum, [a, w]) => sum + a * w, 0) / weightSum;
  const harmonic = moves.length / moves.reduce((sum, [a]) => sum + 1 / Math.max(1, a), 0);
  return (weighted + harmonic) / 2;
}

/**
 * An evaluation in [%eval] form: pawns with two decimals, or #n.
 * @param {{cp?: number, mate?: number}} score White's view
 */
export function evalText(score) {
  if (score.mate !== undefined) return `#${score.mate}`;
  const cp = score.cp ?? 0;
  return `${cp < 0 ? "-" : ""}${(Math.abs(cp) / 100).toFixed(2)}`;
}

/**
 * The review as annotations for `Game.annotatedPgn`: each move's NAG, its [%eval] and, for a marked move, the
 * better move and its line as a variation. The person's own arrows and circles by ply are added to the comment.
 * @param {{moves: ReturnType<typeof markMoves>["moves"], evals: ({cp?: number, mate?: number} | null)[]}} review
 * @param {Record<number, {arrows?: string[], circles?: string[]}>} [shapes] the person's drawings by ply
 * @returns {string[]} `"<ply> <annotation>"` texts
 */
export function reviewAnnotations(review, shapes = {}) {
  const texts = [];
  const plies = new Set([...review.moves.map((m) => m.ply), ...Object.keys(shapes).map(Number)]);
  for (const ply of [...plies].sort((a, b) => a - b)) {
    const move = review.moves[ply - 1];
    const parts = [];
    if (move?.mark) parts.push(`$${MARK_NAGS[move.mark]}`);
    const comment = [];
    const score = review.evals[ply];
    if (score && !score.over) comment.push(`[%eval ${evalText(score)}]`);
    const drawn = shapes[ply];
    if (drawn?.arrows?.length) comment.push(`[%cal ${drawn.arrows.join(",")}]`);
    if (drawn?.circles?.length) comment.push(`[%csl ${drawn.circles.join(",")}]`);
    if (comment.length) parts.push(`{${comment.join(" ")}}`);
    if (move?.mark && move.bestSan) parts.push(`(${[move.bestSan, ...move.bestLine.slice(1)].join(" ")})`);
    if (parts.length) texts.push(`${ply} ${parts.join(" ")}`);
  }
  return texts;
}

/**
 * What a PGN's annotations (`Game.annotations()`) hold: a review (the marks from the NAGs, the better moves from
 * the variations, the evaluations from [%eval]; `reviewed` false when there are no marks and no evaluations) and
 * the drawn arrows and circles by ply; null when the PGN has no annotations.
 * @param {any} game the wasm Game
 */
export function reviewFromAnnotations(game) {
  const annotations = game.annotations();
  if (!annotations.length) return null;
  const evalled = annotations.filter((a) => a.eval);
  const marked = annotations.filter((a) => a.nags.some((n) => NAG_MARKS[n]));
  const sans = game.historySan();
  const byPly = new Map(annotations.map((a) => [a.ply, a]));
  const evals = Array.from({ length: sans.length + 1 }, (_, ply) => byPly.get(ply)?.eval ?? null);
  // The start has no comment of its own: an even start keeps the graph and the first move's drop honest.
  evals[0] ??= evals[1] ? { cp: 0 } : null;
  const whiteFirst = game.startFen().split(" ")[1] !== "b";
  const computed = markMoves({ sans, whiteFirst, evals });
  const moves = computed.moves.map((m) => {
    const a = byPly.get(m.ply);
    const mark = a ? (NAG_MARKS[a.nags.find((n) => NAG_MARKS[n])] ?? null) : null;
    const line = a?.variationSan ?? [];
    return { ...m, mark, best: a?.variation[0] ?? null, bestSan: line[0] ?? null, bestLine: line };
  });
  const shapes = {};
  for (const a of annotations) if (a.arrows.length || a.circles.length) shapes[a.ply] = { arrows: a.arrows, circles: a.circles };
  return { moves, accuracy: computed.accuracy, evals, shapes, reviewed: evalled.length > 0 || marked.length > 0 };
}

/**
 * The evaluation of a position for the review, White's view: the search's, or the rules' verdict where the game
 * is over (a mated side has no move to search).
 * @param {any} result a search result
 * @param {boolean} whiteToMove
 */
function positionEval(result, whiteToMove) {
  if (result.best) return result.scoreWhite;
  // No legal move: stalemate is level; a mated side lost outright (no [%eval] is written for it).
  if (result.score.mate === undefined) return { cp: 0 };
  return { cp: whiteToMove ? -CAP_CP : CAP_CP, over: true };
}

/**
 * Reviews a game: searches each position in its own engine, reporting progress, and marks the moves.
 * @param {object} setup
 * @param {any} setup.game the wasm Game (read only; positions after each move are searched)
 * @param {() => any} setup.createEngine makes an engine client for the review alone (destroyed at the end)
 * @param {(done: number, total: number) => void} [setup.onProgress]
 * @param {AbortSignal} [setup.signal] calls the review off (the promise rejects with an AbortError)
 * @param {object} [setup.limits] search limits per position (REVIEW_LIMITS by default)
 * @returns {Promise<{moves: ReturnType<typeof markMoves>["moves"], accuracy: {white: number | null, black: number | null},
 *   evals: ({cp?: number, mate?: number} | null)[]}>}
 */
export async function reviewGame({ game, createEngine, onProgress, signal, limits = REVIEW_LIMITS }) {
  const sans = game.historySan();
  const uci = game.historyUci();
  const startFen = game.startFen();
  const whiteFirst = startFen.split(" ")[1] !== "b";
  const total = sans.length + 1;
  const abort = () => Object.assign(new Error("the review was called off"), { name: "AbortError" });
  if (signal?.aborted) throw abort();
  const engine = await createEngine();
  const stop = () => engine.destroy?.();
  signal?.addEventListener("abort", stop, { once: true });
  const evals = [];
  const bests = [];
  try {
    engine.newGame?.();
    for (let ply = 0; ply < total; ply++) {
      if (signal?.aborted) throw abort();
      const whiteToMove = whiteFirst === (ply % 2 === 0);
      let result;
      try {
        result = await engine.search({ ...limits, fen: startFen, moves: uci.slice(0, ply) });
      } catch (err) {
        throw signal?.aborted ? abort() : err;
      }
      evals.push(positionEval(result, whiteToMove));
      bests.push(result.best ? { uci: result.best, san: result.bestSan, line: lineSan(game, ply, result.pvUci) } : null);
      onProgress?.(ply + 1, total);
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    stop();
  }
  const marked = markMoves({ sans, whiteFirst, evals, bests, played: uci });
  return { ...marked, evals };
}

/**
 * A line in UCI from the position after `ply` moves, in SAN, as far as it is legal (at most 8 moves).
 * @param {any} game the wasm Game
 * @param {number} ply
 * @param {string[]} line
 */
export function lineSan(game, ply, line) {
  const Game = game.constructor;
  const board = new Game(game.fenAt(ply));
  const sans = [];
  try {
    for (const move of line.slice(0, 8)) {
      const found = board.legalMoves().find((m) => m.uci === move);
      if (!found) break;
      board.play(move);
      sans.push(found.san);
    }
  } finally {
    board.free?.();
  }
  return sans;
}
