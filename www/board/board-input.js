// Pointer input on the board canvas: click-click and drag-and-drop for mouse, pen and touch (Pointer Events).
// It changes the view state (selection, drag) and reports move intents; legality comes from the hooks.

/**
 * @typedef {object} InputHooks
 * @property {(square: string) => boolean} canSelect  whether the human may pick up the piece on a square
 * @property {(square: string) => import("./board-state.js").Target[]} targetsFor  legal destinations
 * @property {(from: string, to: string) => void} onMove  a completed move gesture onto a legal target
 * @property {(piece: string | null) => void} onPromotion  a promotion choice, or null when dismissed
 */

/** Distance in CSS pixels a pressed pointer must travel before it counts as a drag. */
const DRAG_THRESHOLD = 4;

/** Attaches pointer handling to the renderer's canvas; returns a function that detaches it. */
export function attachBoardInput(renderer, hooks) {
  const { canvas, state } = renderer;
  /** @type {{from: string, pointerId: number, x: number, y: number, dragging: boolean, wasSelected: boolean} | null} */
  let press = null;

  const local = (event) => {
    const rect = canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  const select = (square) => {
    state.selected = square;
    state.targets = square ? hooks.targetsFor(square) : [];
    renderer.requestDraw();
  };

  const isTarget = (square) => state.targets.some((t) => t.to === square);

  const down = (event) => {
    if (event.button !== 0 || press) return;
    const point = local(event);
    const square = renderer.squareAt(point.x, point.y);
    if (state.promotion) {
      event.preventDefault();
      const pick = renderer.promotionSquares().find((p) => p.square === square);
      hooks.onPromotion(pick ? pick.piece : null);
      return;
    }
    if (!square || !state.interactive) return;
    event.preventDefault();
    if (state.selected && state.selected !== square && isTarget(square)) {
      const from = state.selected;
      select(null);
      hooks.onMove(from, square);
      return;
    }
    if (hooks.canSelect(square)) {
      const wasSelected = state.selected === square;
      select(square);
      press = { from: square, pointerId: event.pointerId, ...point, dragging: false, wasSelected };
      canvas.setPointerCapture?.(event.pointerId);
    } else {
      select(null);
    }
  };

  const move = (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    const point = local(event);
    if (!press.dragging && Math.hypot(point.x - press.x, point.y - press.y) < DRAG_THRESHOLD) return;
    press.dragging = true;
    const piece = state.pieces[indexOf(press.from)];
    state.drag = { from: press.from, piece, x: point.x, y: point.y, over: renderer.squareAt(point.x, point.y) };
    renderer.requestDraw();
  };

  const up = (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    const current = press;
    press = null;
    canvas.releasePointerCapture?.(event.pointerId);
    if (!current.dragging) {
      if (current.wasSelected) select(null);
      return;
    }
    const point = local(event);
    const over = renderer.squareAt(point.x, point.y);
    state.drag = null;
    if (over && over !== current.from && isTarget(over)) {
      select(null);
      hooks.onMove(current.from, over);
    } else if (over !== current.from) {
      select(null);
    } else {
      renderer.requestDraw();
    }
  };

  const cancel = (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    press = null;
    state.drag = null;
    renderer.requestDraw();
  };

  const listeners = { pointerdown: down, pointermove: move, pointerup: up, pointercancel: cancel, lostpointercapture: cancel };
  for (const [type, fn] of Object.entries(listeners)) canvas.addEventListener(type, fn);
  const noMenu = (event) => event.preventDefault();
  canvas.addEventListener("contextmenu", noMenu);
  return () => {
    for (const [type, fn] of Object.entries(listeners)) canvas.removeEventListener(type, fn);
    canvas.removeEventListener("contextmenu", noMenu);
  };
}

/** Index 0–63 of a square name. */
function indexOf(name) {
  return "abcdefgh".indexOf(name[0]) + 8 * (Number(name[1]) - 1);
}
