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
 * promotion becomes a queen, as the person could not choose while the engine thought.
 * @param {{to: string, uci: string, promotion?: string}[]} legal
 * @param {string} to
 */
export function premoveMove(legal, to) {
  const onto = legal.filter((m) => m.to === to);
  return onto.find((m) => !m.promotion || m.promotion === "q") ?? null;
}
