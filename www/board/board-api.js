// The one door to the board's view state for the element: position, last move, arrows, marks, orientation,
// appearance and the promotion chooser. The pointer and keyboard modules keep their own selection and drag state.

/**
 * @typedef {object} BoardApi
 * @property {(pieces: string[], animate: boolean) => void} setPosition 64 piece letters, a1 first ("" empty)
 * @property {(move: {from: string, to: string} | null) => void} setLastMove
 * @property {(move: {from: string, to: string} | null) => void} setPremove the premove's squares, tinted
 * @property {(arrows: {from: string, to: string, color?: string, weight?: number}[]) => void} setArrows arrows (a circle
 *   where from is to), in the theme's arrow colour unless `color` (CSS) is given, `weight` times the usual width
 * @property {(marks: {check?: string | null}) => void} setMarks the king in check
 * @property {(side: "white" | "black") => void} setOrientation
 * @property {(on: boolean) => void} setInteractive whether a human may move now (off clears the selection)
 * @property {(look: {boardTheme?: string, pieceTheme?: string, coordinates?: boolean, colors?: object}) => void} setAppearance
 * @property {(promotion: {from: string, to: string, white: boolean, keyboard: boolean} | null) => void} setPromotion
 * @property {() => {from: string, to: string} | null} promotion the open promotion chooser
 * @property {() => "white" | "black"} orientation
 * @property {() => void} fit re-measures the canvas
 */

/**
 * Wraps a renderer (and its state) in the board API.
 * @param {import("./board-render.js").BoardRenderer} renderer
 * @returns {BoardApi}
 */
export function createBoardApi(renderer) {
  const state = renderer.state;
  const draw = () => renderer.requestDraw();
  return {
    setPosition(pieces, animate) {
      renderer.setPieces(pieces.map((piece) => piece || ""), animate);
      draw();
    },
    setLastMove(move) {
      state.lastMove = move ? { from: move.from, to: move.to } : null;
      draw();
    },
    setPremove(move) {
      state.premove = move ? { from: move.from, to: move.to } : null;
      draw();
    },
    setArrows(arrows) {
      state.arrows = arrows.map(({ from, to, color, weight }) => ({ from, to, color, weight }));
      draw();
    },
    setMarks({ check = null }) {
      state.check = check;
      draw();
    },
    setOrientation(side) {
      state.orientation = side;
      draw();
    },
    setInteractive(on) {
      state.interactive = on;
      if (!on) {
        state.selected = null;
        state.targets = [];
        state.drag = null;
      }
      draw();
    },
    setAppearance(look) {
      for (const key of ["boardTheme", "pieceTheme", "coordinates", "colors"]) if (key in look) state[key] = look[key];
      draw();
    },
    setPromotion(promotion) {
      state.promotion = promotion && {
        from: promotion.from,
        to: promotion.to,
        white: promotion.white,
        choices: ["q", "r", "b", "n"],
        // Opened from the keyboard, the first choice has the focus ring at once.
        focus: promotion.keyboard ? 0 : undefined,
      };
      draw();
    },
    promotion: () => state.promotion,
    orientation: () => state.orientation,
    fit: () => renderer.fit(),
  };
}
