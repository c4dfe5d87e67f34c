// Board and piece colour themes. Pure data: the renderer reads them, nothing else decides colours.

/**
 * @typedef {object} BoardTheme
 * @property {string} light  light squares
 * @property {string} dark   dark squares
 * @property {string} lastMove  tint over the last move's squares
 * @property {string} selected  tint over the selected square
 * @property {string} target  legal target marks
 * @property {string} check  glow around a king in check
 * @property {string} arrow  hint arrows
 * @property {string} [premove]  tint over a premove's squares ({@link PREMOVE_TINT} unless given)
 */

/** The tint of a premove's squares: blue, apart from the last move's yellow and the selection's green. */
export const PREMOVE_TINT = "rgba(40, 80, 190, 0.45)";

/** Board colour schemes by name. */
export const BOARD_THEMES = {
  walnut: {
    label: "Walnut",
    light: "#f0d9b5",
    dark: "#b58863",
    lastMove: "rgba(205, 210, 106, 0.62)",
    selected: "rgba(20, 85, 30, 0.45)",
    target: "rgba(20, 85, 30, 0.5)",
    check: "rgba(230, 30, 30, 0.95)",
    arrow: "rgba(21, 120, 27, 0.8)",
  },
  ocean: {
    label: "Ocean",
    light: "#dee3e6",
    dark: "#8ca2ad",
    lastMove: "rgba(155, 199, 0, 0.45)",
    selected: "rgba(20, 60, 110, 0.4)",
    target: "rgba(20, 60, 110, 0.5)",
    check: "rgba(230, 30, 30, 0.95)",
    arrow: "rgba(224, 112, 0, 0.85)",
  },
  forest: {
    label: "Forest",
    light: "#eeeed2",
    dark: "#769656",
    lastMove: "rgba(255, 255, 51, 0.45)",
    selected: "rgba(10, 60, 10, 0.4)",
    target: "rgba(10, 50, 10, 0.45)",
    check: "rgba(230, 30, 30, 0.95)",
    arrow: "rgba(230, 120, 0, 0.85)",
  },
  slate: {
    label: "Slate",
    light: "#9aa3ad",
    dark: "#56606b",
    lastMove: "rgba(120, 180, 255, 0.42)",
    selected: "rgba(255, 255, 255, 0.28)",
    target: "rgba(15, 20, 30, 0.5)",
    check: "rgba(255, 60, 60, 0.95)",
    arrow: "rgba(255, 190, 60, 0.85)",
  },
  rose: {
    label: "Rose",
    light: "#f4e4e1",
    dark: "#c28e8a",
    lastMove: "rgba(120, 170, 230, 0.45)",
    selected: "rgba(90, 30, 60, 0.35)",
    target: "rgba(90, 30, 60, 0.45)",
    check: "rgba(220, 20, 20, 0.95)",
    arrow: "rgba(40, 110, 200, 0.8)",
  },
};

/**
 * @typedef {object} PieceTheme
 * @property {string} whiteFill
 * @property {string} whiteLine
 * @property {string} blackFill
 * @property {string} blackLine
 * @property {number} lineWidth  outline width in units of 1/100 square
 */

/** Piece colour and contrast schemes by name. */
export const PIECE_THEMES = {
  classic: {
    label: "Classic",
    whiteFill: "#fbfaf6",
    whiteLine: "#1d1b18",
    blackFill: "#2b2824",
    blackLine: "#0d0c0b",
    blackDetail: "#e8e4da",
    lineWidth: 3,
  },
  contrast: {
    label: "High contrast",
    whiteFill: "#ffffff",
    whiteLine: "#000000",
    blackFill: "#000000",
    blackLine: "#000000",
    blackDetail: "#ffffff",
    lineWidth: 4.2,
  },
  ivory: {
    label: "Ivory & ebony",
    whiteFill: "#f3e6c8",
    whiteLine: "#3b2a17",
    blackFill: "#3a2f28",
    blackLine: "#140e0a",
    blackDetail: "#d9c6a3",
    lineWidth: 3,
  },
};

/** Name of the default board theme. */
export const DEFAULT_BOARD_THEME = "walnut";
/** Name of the default piece theme. */
export const DEFAULT_PIECE_THEME = "classic";

/**
 * The board theme with that name, or the default.
 * @param {string} name
 * @returns {BoardTheme}
 */
export function boardTheme(name) {
  return { premove: PREMOVE_TINT, ...(BOARD_THEMES[name] ?? BOARD_THEMES[DEFAULT_BOARD_THEME]) };
}

/**
 * The piece theme with that name, or the default.
 * @param {string} name
 * @returns {PieceTheme}
 */
export function pieceTheme(name) {
  return PIECE_THEMES[name] ?? PIECE_THEMES[DEFAULT_PIECE_THEME];
}
