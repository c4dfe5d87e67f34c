// The board's view state: what to show. Input changes it, the renderer reads it; no chess rules here.

/** File letters, a to h. */
export const FILES = "abcdefgh";

/**
 * Index 0–63 (a1 = 0, h8 = 63) of a square name such as "e4".
 * @param {string} name
 */
export function squareIndex(name) {
  return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
}

/**
 * Name ("e4") of a square index 0–63.
 * @param {number} index
 */
export function squareName(index) {
  return FILES[index & 7] + String((index >> 3) + 1);
}

/**
 * @typedef {object} Target  a legal destination of the selected piece
 * @property {string} to
 * @property {"quiet"|"capture"|"castle"|"promotion"|"en-passant"|"premove"} kind  ("premove": a square a premove may go to)
 * @property {boolean} [capture]  also a capture (promotion by capture)
 */

/**
 * @typedef {object} BoardState
 * @property {string[]} pieces  64 FEN letters, a1 first, "" for empty
 * @property {"white"|"black"} orientation  side shown at the bottom
 * @property {{from: string, to: string} | null} lastMove
 * @property {{from: string, to: string} | null} premove  the move set to be played after the engine's
 * @property {string | null} check  square of a king in check
 * @property {string | null} selected
 * @property {Target[]} targets
 * @property {{from: string, to: string}[]} arrows
 * @property {{from: string, piece: string, x: number, y: number, over: string | null, touch?: boolean, scale?: number, lift?: number} | null} drag
 *   the dragged piece: x, y of the pointer in CSS pixels; for a finger, the piece's size and lift above it in squares
 * @property {{to: string, white: boolean, choices: string[]} | null} promotion  the open promotion chooser
 * @property {boolean} coordinates
 * @property {boolean} interactive  whether a human may move now
 * @property {string} boardTheme
 * @property {string} pieceTheme
 * @property {string | null} cursor  the keyboard focus square
 * @property {Partial<Record<string, string>>} colors  colours that override the board theme (from CSS custom properties)
 */

/** A fresh board state with the standard start position. */
export function createBoardState() {
  return {
    pieces: piecesFromPlacement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
    orientation: "white",
    lastMove: null,
    premove: null,
    check: null,
    selected: null,
    targets: [],
    arrows: [],
    drag: null,
    promotion: null,
    coordinates: true,
    interactive: true,
    boardTheme: "walnut",
    pieceTheme: "classic",
    cursor: null,
    colors: {},
  };
}

/**
 * 64 piece letters (a1 first) from the placement field of a FEN, or from a whole FEN.
 * @param {string} fen
 */
export function piecesFromPlacement(fen) {
  const pieces = new Array(64).fill("");
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "8") file += Number(ch);
      else pieces[(7 - i) * 8 + file++] = ch;
    }
  });
  return pieces;
}
