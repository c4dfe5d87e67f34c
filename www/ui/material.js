// The material difference beside each player's name, as chess sites show it: the pieces one side has taken more of
// than the other (net, so that a trade shows nothing) and the points it is ahead by (pawn 1, knight and bishop 3,
// rook 5, queen 9).

import { drawPiece } from "../board/pieces.js";

const KINDS = ["q", "r", "b", "n", "p"];
const VALUES = { q: 9, r: 5, b: 3, n: 3, p: 1 };
const NAMES = { q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
/** A taken piece's side in CSS pixels, and how much of it the next one of the same kind covers. */
const SIZE = 18;
const OVERLAP = 0.55;
const GAP = 3;

/**
 * For each side, the opponent's pieces it is ahead by (FEN letters, most valuable first) and the points it leads by
 * (0 for the side behind or level). Promotions count as the piece promoted to, as on a board.
 * @param {string[]} pieces 64 FEN letters ("" empty)
 * @returns {{white: {taken: string[], points: number}, black: {taken: string[], points: number}}}
 */
export function materialDifference(pieces) {
  const count = new Map();
  for (const p of pieces) if (p) count.set(p, (count.get(p) ?? 0) + 1);
  const out = { white: { taken: [], points: 0 }, black: { taken: [], points: 0 } };
  let balance = 0;
  for (const k of KINDS) {
    const d = (count.get(k.toUpperCase()) ?? 0) - (count.get(k) ?? 0);
    balance += d * VALUES[k];
    // The side with more of a kind has taken the other's: White's lead shows Black's pieces, and the other way.
    const [taken, letter] = d > 0 ? [out.white.taken, k] : [out.black.taken, k.toUpperCase()];
    for (let i = 0; i < Math.abs(d); i++) taken.push(letter);
  }
  if (balance > 0) out.white.points = balance;
  else if (balance < 0) out.black.points = -balance;
  return out;
}

/**
 * Words for a side's lead, for screen readers: "ahead by a knight and 2 pawns, +5", or "" when it has none.
 * @param {{taken: string[], points: number}} side
 */
export function describeMaterial({ taken, points }) {
  if (!taken.length) return "";
  const groups = [];
  for (const k of KINDS) {
    const n = taken.filter((t) => t.toLowerCase() === k).length;
    if (n) groups.push(n === 1 ? `a ${NAMES[k]}` : `${n} ${NAMES[k]}s`);
  }
  const list = groups.length > 1 ? `${groups.slice(0, -1).join(", ")} and ${groups.at(-1)}` : groups[0];
  return `ahead by ${list}${points ? `, +${points}` : ""}`;
}

/**
 * Draws a side's lead into its bar: the taken pieces on `canvas` as silhouettes in its text colour (white or black
 * pieces alike, which the page's background would swallow in one theme or the other), overlapping within a kind,
 * and "+N" in `points`.
 * @param {HTMLCanvasElement} canvas
 * @param {HTMLElement} points
 * @param {{taken: string[], points: number}} side
 */
export function renderMaterial(canvas, points, side) {
  const { taken } = side;
  points.textContent = side.points ? `+${side.points}` : "";
  const label = describeMaterial(side);
  canvas.hidden = !taken.length;
  if (label) canvas.setAttribute("aria-label", label);
  else canvas.removeAttribute("aria-label");
  // Where each piece goes: a step of the overlap within a kind, a gap between kinds.
  const xs = [];
  let x = 0;
  taken.forEach((letter, i) => {
    if (i > 0) x += letter === taken[i - 1] ? SIZE * (1 - OVERLAP) : SIZE + GAP;
    xs.push(x);
  });
  const width = taken.length ? x + SIZE : 0;
  const style = getComputedStyle(canvas);
  const ink = style.color || "#6d685f";
  const key = `${taken.join("")}|${ink}|${globalThis.devicePixelRatio ?? 1}`;
  if (canvas.dataset.drawn === key) return;
  canvas.dataset.drawn = key;
  const ratio = globalThis.devicePixelRatio || 1;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${SIZE}px`;
  canvas.width = Math.max(1, Math.round(width * ratio));
  canvas.height = Math.round(SIZE * ratio);
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, SIZE);
  // Every piece drawn as a black one, whose inner lines take the panel's colour.
  const detail = style.getPropertyValue("--hc-panel").trim() || "#ffffff";
  const theme = { whiteFill: ink, whiteLine: ink, blackFill: ink, blackLine: ink, blackDetail: detail, lineWidth: 3 };
  taken.forEach((letter, i) => drawPiece(ctx, letter.toLowerCase(), xs[i], 0, SIZE, theme));
}
