// Keyboard play on the board canvas: arrow keys move a focus square, Enter or Space picks up and drops,
// Escape puts the piece back. It starts when the canvas gets focus other than by a click (Tab, or a script),
// or on Enter, so the arrow keys stay shortcuts for pointer users. Legality comes from the pointer input's hooks.

import { FILES } from "./board-state.js";

/** Focus square moves by arrow key, as [files, ranks] seen from White. */
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/**
 * Attaches keyboard handling to the renderer's canvas; returns a function that detaches it.
 * @param {import("./board-render.js").BoardRenderer} renderer
 * @param {import("./board-input.js").InputHooks & {enabled: () => boolean, announce: (text: string) => void, onEscape?: () => boolean}} hooks
 *   `onEscape` is asked when Escape has no piece to put back; it returns whether it used the key (a premove cancelled)
 */
export function attachBoardKeys(renderer, hooks) {
  const { canvas, state } = renderer;

  const setCursor = (square) => {
    state.cursor = square;
    renderer.requestDraw();
    if (square) hooks.announce(describe(square));
  };

  /** Whether the picked-up piece's squares are a premove's (the engine is to move), not legal moves. */
  const premoving = () => state.targets[0]?.kind === "premove";

  /** "e2, white pawn, selected" for screen readers. */
  const describe = (square) => {
    const index = FILES.indexOf(square[0]) + 8 * (Number(square[1]) - 1);
    const piece = state.pieces[index];
    let text = square + (piece ? `, ${piece === piece.toUpperCase() ? "white" : "black"} ${PIECE_NAMES[piece.toLowerCase()]}` : ", empty");
    if (state.selected === square) text += ", selected";
    else if (state.targets.some((t) => t.to === square)) text += premoving() ? ", premove square" : ", legal move";
    return text;
  };

  /** Whether a pointer is pressed on the canvas: focus that comes with it is a click's, not the keyboard's. */
  let pressed = false;
  /** Whether the canvas was last focused by a click; then arrows stay shortcuts until Enter. */
  let clicked = false;

  const onFocus = () => {
    if (!hooks.enabled() || pressed) return;
    setCursor(state.selected ?? (state.orientation === "white" ? "e2" : "e7"));
  };

  const onBlur = () => {
    clicked = false;
    if (state.cursor) setCursor(null);
  };

  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (state.promotion) {
      if (!choosePromotion(event.key)) return;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (!state.cursor) {
      // No focus square yet (clicked first, or no focus event came): Enter, or an arrow without a click, starts.
      const starts = event.key === "Enter" || (!clicked && Object.hasOwn(STEPS, event.key));
      if (!starts || !hooks.enabled()) return;
      setCursor(state.selected ?? (state.orientation === "white" ? "e2" : "e7"));
      event.preventDefault();
      return;
    }
    const step = STEPS[event.key];
    if (step) {
      const flip = state.orientation === "white" ? 1 : -1;
      const file = clamp(FILES.indexOf(state.cursor[0]) + step[0] * flip);
      const rank = clamp(Number(state.cursor[1]) - 1 + step[1] * flip);
      setCursor(FILES[file] + String(rank + 1));
    } else if (event.key === "Enter" || event.key === " ") {
      press(state.cursor);
    } else if (event.key === "Escape" && state.selected) {
      select(null);
      hooks.announce("Cancelled");
    } else if (!(event.key === "Escape" && hooks.onEscape?.())) return;
    event.preventDefault();
    event.stopPropagation();
  };

  /** The promotion chooser by keyboard: arrows move between the pieces, Enter or Space or a letter picks, Escape cancels. */
  const choosePromotion = (key) => {
    const promo = state.promotion;
    const focus = promo.focus ?? 0;
    const letter = key.toLowerCase();
    if (key === "ArrowUp" || key === "ArrowDown" || key === "ArrowLeft" || key === "ArrowRight") {
      const step = key === "ArrowDown" || key === "ArrowRight" ? 1 : -1;
      promo.focus = (focus + step + promo.choices.length) % promo.choices.length;
      renderer.requestDraw();
      hooks.announce(PIECE_NAMES[promo.choices[promo.focus]]);
    } else if (key === "Enter" || key === " ") hooks.onPromotion(promo.choices[focus]);
    else if (promo.choices.includes(letter)) hooks.onPromotion(letter);
    else if (key === "Escape") hooks.onPromotion(null);
    else return false;
    return true;
  };

  const select = (square) => {
    state.selected = square;
    state.targets = square ? hooks.targetsFor(square) : [];
    renderer.requestDraw();
  };

  /** Picks up the piece on a square, or drops the picked-up piece there. */
  const press = (square) => {
    if (!state.interactive) return hooks.announce("Not your move");
    if (state.selected && state.targets.some((t) => t.to === square)) {
      const from = state.selected;
      select(null);
      hooks.onMove(from, square);
    } else if (hooks.canSelect(square)) {
      select(square);
      const count = state.targets.length;
      hooks.announce(`${describe(square)}; ${count} ${premoving() ? "premove square" : "legal move"}${count === 1 ? "" : "s"}`);
    } else {
      select(null);
      hooks.announce(`${describe(square)}: nothing to move`);
    }
  };

  const onPointer = () => {
    pressed = true;
    clicked = true;
    if (state.cursor) setCursor(null);
  };
  const onRelease = () => (pressed = false);

  canvas.tabIndex = 0;
  canvas.addEventListener("focus", onFocus);
  canvas.addEventListener("blur", onBlur);
  canvas.addEventListener("keydown", onKey);
  canvas.addEventListener("pointerdown", onPointer);
  canvas.addEventListener("pointerup", onRelease);
  canvas.addEventListener("pointercancel", onRelease);
  return () => {
    canvas.removeEventListener("pointerup", onRelease);
    canvas.removeEventListener("pointercancel", onRelease);
    canvas.removeEventListener("focus", onFocus);
    canvas.removeEventListener("blur", onBlur);
    canvas.removeEventListener("keydown", onKey);
    canvas.removeEventListener("pointerdown", onPointer);
  };
}

/** Piece names by lower-case letter. */
const PIECE_NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };

/** Keeps a file or rank index on the board. */
function clamp(i) {
  return Math.max(0, Math.min(7, i));
}
