// Pointer input on the board canvas: click-click and drag-and-drop for mouse, pen and touch (Pointer Events).
// It changes the view state (selection, drag) and reports move intents; legality comes from the hooks.
//
// Touch: the canvas has `touch-action: none` (homeostat-chess.css), so a finger on the board never scrolls or
// zooms the page and the browser does not cancel the pointer mid-drag. Every finger (or pen) press on the board is
// preventDefault()ed, which stops the compatibility mouse events (a "ghost" mousedown/mouseup after a tap), and
// the pointer is captured, so a drag that leaves the board still ends here. A second finger is ignored. A
// dragged piece is drawn larger and above the finger (which would hide it), while the square it lands on is the
// one under the finger, ringed so it shows around the fingertip.

/**
 * @typedef {object} InputHooks
 * @property {(square: string) => boolean} canSelect  whether the human may pick up the piece on a square
 * @property {(square: string) => import("./board-state.js").Target[]} targetsFor  legal destinations
 * @property {(from: string, to: string) => void} onMove  a completed move gesture onto a legal target
 * @property {(piece: string | null) => void} onPromotion  a promotion choice, or null when dismissed
 * @property {() => void} [onEmptyPress]  a press on the board that picks nothing up (it cancels a premove)
 */

/** Distance in CSS pixels a pressed mouse or pen must travel before it counts as a drag. */
const DRAG_THRESHOLD = 4;
/** The same for a finger, which wobbles more during a tap. */
const TOUCH_DRAG_THRESHOLD = 10;
/** A piece dragged by a finger: its size and how far above the fingertip it is drawn, in squares. */
const TOUCH_DRAG_SCALE = 1.5;
const TOUCH_DRAG_LIFT = 0.75;

/** Attaches pointer handling to the renderer's canvas; returns a function that detaches it. */
export function attachBoardInput(renderer, hooks) {
  const { canvas, state } = renderer;
  /** @type {{from: string, pointerId: number, touch: boolean, x: number, y: number, dragging: boolean, wasSelected: boolean} | null} */
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
    // Only the primary button of the first finger or the mouse; a second finger neither moves nor cancels.
    if (event.button !== 0 || !event.isPrimary || press) return;
    const point = local(event);
    const square = renderer.squareAt(point.x, point.y);
    // A finger or pen press never turns into compatibility mouse events (a "ghost" mousedown and mouseup after
    // a tap); a mouse press is cancelled only where it acts on the board, as before.
    if (event.pointerType !== "mouse") event.preventDefault();
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
      const touch = event.pointerType === "touch";
      press = { from: square, pointerId: event.pointerId, touch, ...point, dragging: false, wasSelected };
      try {
        canvas.setPointerCapture(event.pointerId);
      } catch {
        // The pointer is already gone (released before this ran); its pointerup or pointercancel ends the press.
      }
    } else {
      select(null);
      hooks.onEmptyPress?.();
    }
  };

  const move = (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    const point = local(event);
    const threshold = press.touch ? TOUCH_DRAG_THRESHOLD : DRAG_THRESHOLD;
    if (!press.dragging && Math.hypot(point.x - press.x, point.y - press.y) < threshold) return;
    press.dragging = true;
    const piece = state.pieces[indexOf(press.from)];
    const over = renderer.squareAt(point.x, point.y);
    state.drag = press.touch
      ? { from: press.from, piece, x: point.x, y: point.y, over, scale: TOUCH_DRAG_SCALE, lift: TOUCH_DRAG_LIFT, touch: true }
      : { from: press.from, piece, x: point.x, y: point.y, over };
    renderer.requestDraw();
  };

  const up = (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    const current = press;
    press = null;
    if (canvas.hasPointerCapture?.(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
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

  /** The browser took the pointer away (pointercancel, lost capture): the piece goes back, still selected. */
  const cancel = (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    press = null;
    state.drag = null;
    renderer.requestDraw();
  };

  const listeners = { pointerdown: down, pointermove: move, pointerup: up, pointercancel: cancel, lostpointercapture: cancel };
  for (const [type, fn] of Object.entries(listeners)) canvas.addEventListener(type, fn);
  // No context menu from a right click or a long press.
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
