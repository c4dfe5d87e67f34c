// The player's settings: their defaults, and the check each field must pass when read back from storage
// (a stored field of the wrong shape is dropped, so the default or the attribute applies instead).

import { BOARD_THEMES, PIECE_THEMES } from "../board/themes.js";

/**
 * A time control "MINUTES+SECONDS" (minutes may be fractional: "0.5+0"; "5" is "5+0").
 * @param {string} text
 * @returns {{value: {baseMs: number, incMs: number}} | {error: string}}
 */
export function parseClock(text) {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$/.exec(String(text));
  const minutes = match ? Number(match[1]) : NaN;
  const seconds = match?.[2] ? Number(match[2]) : 0;
  if (!(minutes > 0 && minutes <= 600 && seconds <= 600)) {
    return { error: `clock="${text}": write minutes and an increment in seconds, such as 5+3 or 0.5+0 (up to 600+600)` };
  }
  return { value: { baseMs: Math.round(minutes * 60_000), incMs: Math.round(seconds * 1000) } };
}

/** Who the human plays. */
export const PLAYERS = ["white", "black", "both", "none"];

/** Settings used until the player changes them. */
export const DEFAULT_SETTINGS = Object.freeze({
  player: "white",
  level: 4,
  think: "level",
  book: true,
  analysis: true,
  sound: true,
  coordinates: true,
  /** A pawn reaching the last rank on the board becomes a queen without the chooser. */
  autoQueen: false,
  /** While the engine thinks, the person may set the move to play once it has replied. */
  premoves: true,
  boardTheme: "walnut",
  pieceTheme: "classic",
  orientation: "white",
  /** The time control as the `clock` attribute writes it ("5+3"), or "" for none. */
  clock: "",
});

/** Whether `think` is a think setting: "level", "adaptive", or whole milliseconds from 10 to 600000. */
export function isThink(value) {
  if (value === "level" || value === "adaptive") return true;
  return typeof value === "string" && /^\d{2,6}$/.test(value) && Number(value) >= 10 && Number(value) <= 600_000;
}

/** The check of each setting. */
const CHECKS = {
  player: (v) => PLAYERS.includes(v),
  level: (v) => Number.isInteger(v) && v >= 1 && v <= 8,
  think: isThink,
  book: (v) => typeof v === "boolean",
  analysis: (v) => typeof v === "boolean",
  sound: (v) => typeof v === "boolean",
  coordinates: (v) => typeof v === "boolean",
  autoQueen: (v) => typeof v === "boolean",
  premoves: (v) => typeof v === "boolean",
  boardTheme: (v) => typeof v === "string" && Object.hasOwn(BOARD_THEMES, v),
  pieceTheme: (v) => typeof v === "string" && Object.hasOwn(PIECE_THEMES, v),
  orientation: (v) => v === "white" || v === "black",
  clock: (v) => v === "" || (typeof v === "string" && "value" in parseClock(v)),
};

/**
 * The valid fields of stored settings; anything else (unknown names, wrong shapes) is left out.
 * @param {unknown} stored
 * @returns {Partial<typeof DEFAULT_SETTINGS>}
 */
export function validSettings(stored) {
  if (stored === null || typeof stored !== "object" || Array.isArray(stored)) return {};
  const valid = {};
  for (const [name, check] of Object.entries(CHECKS)) {
    if (Object.hasOwn(stored, name) && check(stored[name])) valid[name] = stored[name];
  }
  return valid;
}

/** Whether a value is a score as the engine reports it ({cp} or {mate}). */
export function isScore(value) {
  return value !== null && typeof value === "object" && (Number.isFinite(value.cp) || Number.isFinite(value.mate));
}

/** The endings a stored game keeps, since its final position does not show them ("unspecified": a PGN's result). */
const ENDINGS_TO_KEEP = ["resignation", "agreement", "time", "unspecified"];

/**
 * A stored game with its fields checked: null when its moves or start cannot be used; evaluations that are not
 * scores become gaps; `source` (the PGN the game was loaded from) is kept when it is text.
 * @param {unknown} stored
 * @returns {{startFen: string, moves: string[], ending: {result: string, reason: string} | null, evals: (object | null)[], source: string | null,
 *   clocks: {baseMs: number, incMs: number, w: number, b: number} | null} | null}
 */
export function validGame(stored) {
  if (stored === null || typeof stored !== "object") return null;
  const { startFen, moves, ending, evals, source, clocks } = /** @type {Record<string, any>} */ (stored);
  if (typeof startFen !== "string" || !Array.isArray(moves) || !moves.every((m) => typeof m === "string")) return null;
  const end =
    ending && typeof ending === "object" && ["1-0", "0-1", "1/2-1/2"].includes(ending.result) && ENDINGS_TO_KEEP.includes(ending.reason)
      ? { result: ending.result, reason: ending.reason }
      : null;
  const scores = Array.isArray(evals) ? evals.map((e) => (isScore(e) ? e : null)) : [];
  return { startFen, moves, ending: end, evals: scores, source: typeof source === "string" ? source : null, clocks: validClocks(clocks) };
}

/**
 * Stored clocks when every field is a time (milliseconds, not negative), else null.
 * @param {unknown} clocks
 * @returns {{baseMs: number, incMs: number, w: number, b: number} | null}
 */
function validClocks(clocks) {
  if (clocks === null || typeof clocks !== "object") return null;
  const fields = ["baseMs", "incMs", "w", "b"].map((name) => /** @type {Record<string, unknown>} */ (clocks)[name]);
  if (!fields.every((ms) => typeof ms === "number" && Number.isFinite(ms) && ms >= 0)) return null;
  const [baseMs, incMs, w, b] = /** @type {number[]} */ (fields);
  return { baseMs, incMs, w, b };
}

/**
 * The record of a game to store: start, moves, how it ended when no position shows it (resignation, agreement, time,
 * or a result read from a PGN without its reason), the evaluations by ply, the PGN the game was loaded from (its
 * tags and annotations; null for a game not loaded from one), and the clocks' time control and times left.
 * @param {any} game a wasm Game
 * @param {(object | null)[]} evals
 * @param {any} [clock] the game's ChessClock (extras/clock.js), if it has one
 */
export function gameRecord(game, evals, clock = null) {
  const outcome = game.outcome();
  const ending = outcome && ENDINGS_TO_KEEP.includes(outcome.reason) ? outcome : null;
  return {
    startFen: game.startFen(),
    moves: game.historyUci(),
    ending: ending && { result: ending.result, reason: ending.reason },
    evals,
    source: game.sourcePgn() ?? null,
    clocks: clock && { baseMs: clock.baseMs, incMs: clock.incMs, w: Math.round(clock.timeLeft("w")), b: Math.round(clock.timeLeft("b")) },
  };
}

/**
 * A stored game (checked by {@link validGame}) replayed. Throws an Error saying why when its moves no longer play;
 * when only the PGN it was loaded from cannot be read back, the game comes back without its tags and annotations
 * and `warn` is told why.
 * @param {any} rules the wasm package
 * @param {NonNullable<ReturnType<typeof validGame>>} saved
 * @param {(message: string) => void} [warn]
 */
export function restoreGame(rules, saved, warn = () => {}) {
  // Replayed as a record is read: a game loaded from a PGN may go on past a draw nobody claimed, which play() would
  // claim at once.
  const result = saved.ending?.reason === "unspecified" ? saved.ending.result : undefined;
  let game;
  try {
    game = rules.Game.replay(saved.startFen, saved.moves, result, saved.source ?? undefined);
  } catch (err) {
    if (saved.source === null) throw err;
    game = rules.Game.replay(saved.startFen, saved.moves, result);
    warn(`the saved game's PGN tags and annotations could not be read back: ${err.message}`);
  }
  if (saved.ending?.reason === "resignation") game.resign(saved.ending.result === "1-0" ? "b" : "w");
  else if (saved.ending?.reason === "agreement") game.agreeDraw();
  // A draw on time: the side to move flagged (its opponent could not mate).
  else if (saved.ending?.reason === "time") game.flag(saved.ending.result === "1-0" ? "b" : saved.ending.result === "0-1" ? "w" : game.turn());
  return game;
}
