// Premoves: while the engine thinks, the person may pick up one of their pieces and set the move they will play
// once the engine has moved. Which squares a piece may be premoved to is geometry alone (the engine's reply is not
// known yet: a blocker may move away, a piece may arrive to be taken); whether the move is legal is decided when it
// is played.

import { squareIndex, squareName } from "../board/board-state.js";

const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const DIAGONAL = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const STRAIGHT = [[1, 0], [-1, 0], [0, 1], [0, -1]];

/**
 * Squares the piece on `square` could reach after any reply: the piece's moves on an otherwise empty board (every
 * square of a slider's lines, a pawn's pushes and both diagonals), and castling while `castling` (the FEN field)
 * still allows it and the king and rook stand at home. One target per square, as the board's targets are.
 * @param {string[]} pieces 64 FEN letters, a1 first ("" empty)
 * @param {string} square
 * @param {string} castling the FEN's castling field ("KQkq", "-", …)
 * @returns {import("../board/board-state.js").Target[]}
 */
export function premoveTargets(pieces, square, castling) {
  const piece = pieces[squareIndex(square)];
  if (!piece) return [];
  const white = piece === piece.toUpperCase();
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const out = new Set();
  const add = (f, r) => {
    if (f >= 0 && f < 8 && r >= 0 && r < 8) out.add(squareName(f + 8 * r));
  };
  const slide = (steps) => {
    for (const [df, dr] of steps) for (let k = 1; k < 8; k++) add(file + df * k, rank + dr * k);
  };
  switch (piece.toLowerCase()) {
    case "p": {
      const up = white ? 1 : -1;
      add(file, rank + up);
      if (rank === (white ? 1 : 6)) add(file, rank + 2 * up);
      add(file - 1, rank + up);
      add(file + 1, rank + up);
      break;
    }
    case "n":
      for (const [df, dr] of KNIGHT) add(file + df, rank + dr);
      break;
    case "b":
      slide(DIAGONAL);
      break;
    case "r":
      slide(STRAIGHT);
      break;
    case "q":
      slide(DIAGONAL);
      slide(STRAIGHT);
      break;
    case "k": {
      for (const [df, dr] of KING) add(file + df, rank + dr);
      const home = white ? "1" : "8";
      const rook = white ? "R" : "r";
      if (square === `e${home}`) {
        if (castling.includes(white ? "K" : "k") && pieces[squareIndex(`h${home}`)] === rook) out.add(`g${home}`);
        if (castling.includes(white ? "Q" : "q") && pieces[squareIndex(`a${home}`)] === rook) out.add(`c${home}`);
      }
      break;
    }
  }
  return [...out].map((to) => ({ to, kind: "premove" }));
}

/**
 * The legal move a premove from `from` to `to` stands for among `legal` (the game's moves from `from`), or null: a
 * promotion becomes `promotion`, a queen unless a typed premove named another piece.
 * @param {{to: string, uci: string, promotion?: string}[]} legal
 * @param {string} to
 * @param {string} [promotion]
 */
export function premoveMove(legal, to, promotion = "q") {
  const onto = legal.filter((m) => m.to === to);
  return onto.find((m) => !m.promotion || m.promotion === promotion) ?? null;
}

/** Piece names by lower-case FEN letter. */
export const PIECE_NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };

/**
 * Reads a move typed while the engine thinks as a premove for `side` ("w" or "b"): SAN as the move box takes it
 * (`Nf3`, `exd5`, `Rad1`, `e8=N`, `O-O`, with or without `+`, `#`, `!` or `?`) or coordinates (`g1f3`, `e7e8q`).
 * It names one of the side's pieces that could reach its square after a reply, by {@link premoveTargets}: a capture
 * mark is not checked (the piece to take may be about to arrive) and a line blocked now may open, so `Rd1` with rooks
 * on a1 and h1 needs its file. A promotion names its piece only when typed with one (none: a queen, as on the board).
 * @param {string[]} pieces 64 FEN letters, a1 first ("" empty)
 * @param {string} text
 * @param {"w" | "b"} side
 * @param {string} castling the FEN's castling field
 * @returns {{from: string, to: string, promotion?: string} | {error: string}}
 */
export function premoveFromText(pieces, text, side, castling) {
  const core = text.trim().replace(/\s*e\.p\.$/, "").replace(/[+#!?]+$/, "");
  const own = (square) => {
    const piece = pieces[squareIndex(square)];
    return Boolean(piece) && (piece === piece.toUpperCase()) === (side === "w");
  };
  const reaches = (from, to) => premoveTargets(pieces, from, castling).some((t) => t.to === to);
  const home = side === "w" ? "1" : "8";
  const last = side === "w" ? "8" : "1";
  const castle = /^[0Oo]-[0Oo](-[0Oo])?$/.exec(core);
  if (castle) {
    const to = (castle[1] ? "c" : "g") + home;
    const king = side === "w" ? "K" : "k";
    if (pieces[squareIndex(`e${home}`)] === king && reaches(`e${home}`, to)) return { from: `e${home}`, to };
    return { error: `Castling ${castle[1] ? "long" : "short"} is no longer possible in this game.` };
  }
  const coords = /^([a-h][1-8])[-x:]?([a-h][1-8])([qrbnQRBN])?$/.exec(core);
  if (coords) {
    const [, from, to, promo] = coords;
    if (!own(from)) return { error: `You have no piece on ${from}.` };
    if (!reaches(from, to)) return { error: `The piece on ${from} cannot reach ${to}.` };
    return withPromotion(pieces, from, to, last, promo?.toLowerCase());
  }
  // Piece letter (lower-case n, r, q, k too, never b: the b-file), disambiguation, capture mark, square, promotion.
  const san = /^([NBRQKP]|[nrqk])?([a-h])?([1-8])?[x:-]?([a-h][1-8])(?:=?([QRBNqrbn])|\/([QRBN])|\(([QRBN])\))?$/.exec(core);
  if (!san) return { error: `Not a move: ${text.trim()}. Type one such as e4, Nf3 or O-O.` };
  const [, letter, file, rank, to] = san;
  const promo = (san[5] ?? san[6] ?? san[7])?.toLowerCase();
  const kind = (letter ?? "p").toLowerCase();
  const piece = side === "w" ? kind.toUpperCase() : kind;
  const from = [];
  for (let i = 0; i < 64; i++) {
    if (pieces[i] !== piece) continue;
    const square = squareName(i);
    if ((file && square[0] !== file) || (rank && square[1] !== rank)) continue;
    // A pawn named without its file only pushes straight ahead.
    if (kind === "p" && !file && square[0] !== to[0]) continue;
    if (reaches(square, to)) from.push(square);
  }
  const name = PIECE_NAMES[kind];
  if (from.length === 0) return { error: kind === "k" ? `Your king could not go to ${to}.` : `None of your ${name}s could go to ${to}.` };
  if (from.length > 1) {
    const which = letter ? letter.toUpperCase() + (from[0][0] !== from[1][0] ? from[0][0] : from[0][1]) + to : from[0] + to;
    return { error: `Your ${name}s on ${from.join(" and ")} could each go to ${to}: say which, as ${which}.` };
  }
  return withPromotion(pieces, from[0], to, last, promo);
}

/** The premove `from`–`to`, with the piece `promo` named for a pawn reaching the last rank (none: a queen). */
function withPromotion(pieces, from, to, last, promo) {
  const pawn = pieces[squareIndex(from)].toLowerCase() === "p" && to[1] === last;
  if (promo && !pawn) return { error: "Only a pawn reaching the last rank can promote." };
  return promo ? { from, to, promotion: promo } : { from, to };
}
