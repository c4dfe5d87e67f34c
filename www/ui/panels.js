// What the side panels say: the status line, the player bars, the opening line and which buttons work, read from
// the game controller and the element's view state. It writes text and flags only; the element decides when.

import { ICONS } from "./icons.js";
import { materialDifference, renderMaterial } from "./material.js";

/** Human words for results. */
export const RESULT_TEXT = { "1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "Draw" };

const STANDARD_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq";

/** "white" → "White". */
export const capital = (word) => word[0].toUpperCase() + word.slice(1);

/**
 * How a game ended in words, the reason joined by `join` (" by " unless given): "White wins by resignation", "Draw by
 * agreement", "Black wins on time", … A PGN's result without its reason (a resignation recorded only as 1-0) is the
 * result alone.
 * @param {{result: string, reason: string}} outcome
 * @param {string} [join]
 */
export function outcomeText(outcome, join = outcome.reason === "time" ? " on " : " by ") {
  const result = RESULT_TEXT[outcome.result] ?? outcome.result;
  return outcome.reason === "unspecified" ? result : `${result}${join}${outcome.reason}`;
}

/**
 * The status line's text and whether it reports a problem.
 * @param {import("../game/controller.js").GameController} c
 * @param {number | null} viewPly
 */
export function statusLine(c, viewPly) {
  const game = c.game;
  const outcome = game.outcome();
  const white = game.turn() === "w";
  const side = white ? "White" : "Black";
  if (viewPly !== null) return { text: `Viewing move ${Math.ceil(viewPly / 2) || 0} · read-only` };
  if (outcome) return { text: outcomeText(outcome) };
  let text;
  if (c.engineState === "failed" && !c.readonly) {
    // The status line speaks up when the engine is needed for a move; a failed analysis shows in its panel.
    if (!c.humanToMove()) return { text: "Engine unavailable · try again, or play both sides", error: true };
  }
  if (c.thinking) text = `Homeostat is thinking (${side})…`;
  else if (c.humanToMove()) text = c.options.player === "both" ? `${side} to move` : "Your move";
  else text = `${side} to move${c.paused ? " · auto-play paused" : ""}`;
  if (game.inCheck()) text += " · check";
  if (c.memory?.offline) text += " · memory offline";
  else if (c.memory?.slow) text += " · memory slow";
  return { text };
}

/**
 * The opening's name, or where the game started.
 * @param {any} game
 * @param {string | null} [bookError] why the opening names could not be loaded
 */
export function openingLine(game, bookError = null) {
  const opening = game.openingName();
  const standard = game.startFen().startsWith(STANDARD_START);
  if (opening) return `${opening.eco} · ${opening.name}`;
  if (bookError && standard) return `Opening names unavailable (${bookError})`;
  if (game.ply()) return standard ? "" : "From a set-up position";
  return standard ? "Starting position" : "Set-up position";
}

/**
 * The name of the player of `color` ("white") as the PGN the game was loaded from gives it, else the color ("White").
 * @param {any} game
 * @param {string} color
 */
export function playerName(game, color) {
  const tagged = game.tag(capital(color))?.trim();
  return tagged && tagged !== "?" ? tagged : capital(color);
}

/**
 * Fills the player bars and the toolbar's states.
 * @param {{$: (selector: string) => any, fields: Record<string, HTMLElement>}} view
 * @param {import("../game/controller.js").GameController} c
 * @param {{orientation: string, viewPly: number | null, muted: boolean, readonly: boolean, pieces?: string[]}} state
 *   `pieces`: the position on the board (64 FEN letters), whose material the bars show
 */
export function renderBars(view, c, { orientation, viewPly, muted, readonly, pieces }) {
  const { $, fields } = view;
  const game = c.game;
  const outcome = game.outcome();
  const p = c.options.player;
  const name = (color) => {
    if (readonly || p === "both") return playerName(game, color);
    return p === color ? "You" : `Homeostat · level ${c.options.level}`;
  };
  const top = orientation === "white" ? "black" : "white";
  const toMove = game.turn() === "w" ? "white" : "black";
  // The material of the position shown (live or looked back at).
  const material = pieces ? materialDifference(pieces) : null;
  for (const [where, color] of [["top", top], ["bottom", orientation]]) {
    fields[`${where}-name`].textContent = name(color);
    if (material) renderMaterial(fields[`${where}-material`], fields[`${where}-points`], material[color]);
    const bar = $(`.player-bar.${where}`);
    bar.dataset.color = color;
    bar.dataset.active = String(!outcome && toMove === color);
    fields[`${where}-note`].textContent = !outcome && toMove === color && c.thinking ? "thinking…" : "";
  }
  $(".layout").dataset.player = p;
  const enable = (action, on) => {
    const button = $(`.toolbar [data-action="${action}"]`);
    if (button) button.disabled = !on;
  };
  enable("undo", game.ply() > 0 && outcome?.reason !== "time");
  enable("redo", game.redoCount() > 0);
  enable("move-now", c.thinking || (p === "none" && c.paused));
  enable("hint", c.canHint() && viewPly === null && c.engineState !== "failed");
  enable("draw", c.canOfferDraw());
  enable("resign", p !== "none" && !outcome && !readonly);
  $('.toolbar [data-action="autoplay"]').setAttribute("aria-pressed", String(p === "none" && !c.paused));
  const mute = $('.toolbar [data-action="mute"]');
  mute.setAttribute("aria-pressed", String(!muted));
  mute.querySelector("svg").outerHTML = muted ? ICONS.mute : ICONS.sound;
  if (readonly) {
    const shown = viewPly ?? game.ply();
    for (const [action, on] of [["first", shown > 0], ["prev", shown > 0], ["next", shown < game.ply()], ["last", shown < game.ply()]]) {
      $(`.viewer [data-action="${action}"]`).disabled = !on;
    }
  }
}
