// Draws the board state on a canvas: squares, coordinates, highlights, pieces, marks, arrows, drag, promotion chooser.

import { drawPiece } from "./pieces.js";
import { boardTheme, pieceTheme } from "./themes.js";
import { FILES, squareIndex, squareName } from "./board-state.js";

/** Length of a move animation in milliseconds. */
const ANIMATION_MS = 150;

/** Renders a {@link import("./board-state.js").BoardState} onto a canvas that fills its container. */
export class BoardRenderer {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {import("./board-state.js").BoardState} state
   */
  constructor(canvas, state) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.state = state;
    /** Size of the board in CSS pixels. */
    this.cssSize = 0;
    this.frame = 0;
    /** @type {{start: number, moves: {piece: string, from: number, to: number}[]} | null} */
    this.animation = null;
    // Fitted in the next frame, not inside the observer's callback: a new backing store can move the layout (a page
    // scrollbar that comes or goes changes the width), which within the callback WebKit reports as a page error,
    // "ResizeObserver loop completed with undelivered notifications".
    this.fitFrame = 0;
    this.observer = new ResizeObserver(() => {
      this.fitFrame ||= requestAnimationFrame(() => {
        this.fitFrame = 0;
        this.fit();
      });
    });
    this.observer.observe(canvas.parentElement);
    this.fit();
  }

  /** Matches the canvas backing store to its CSS size times devicePixelRatio, then redraws. */
  fit() {
    const rect = this.canvas.parentElement.getBoundingClientRect();
    const size = Math.floor(Math.min(rect.width, rect.height || rect.width));
    if (size <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    const pixels = Math.round(size * dpr);
    this.cssSize = size;
    if (this.canvas.width !== pixels) {
      this.canvas.width = pixels;
      this.canvas.height = pixels;
    }
    this.draw();
    this.watchPixelRatio(dpr);
  }

  /** Redraws when the page moves to a screen with another pixel ratio, or zooms. */
  watchPixelRatio(dpr) {
    if (this.dprQuery?.dpr === dpr) return;
    this.dprQuery?.list.removeEventListener("change", this.dprQuery.listener);
    const list = matchMedia(`(resolution: ${dpr}dppx)`);
    const listener = () => this.fit();
    list.addEventListener("change", listener);
    this.dprQuery = { dpr, list, listener };
  }

  /** Schedules one redraw on the next animation frame. */
  requestDraw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /**
   * Replaces the pieces, animating the pieces that moved (matched by letter from vacated to filled squares).
   * @param {string[]} pieces
   * @param {boolean} animate
   */
  setPieces(pieces, animate) {
    const old = this.state.pieces;
    this.state.pieces = pieces;
    this.animation = null;
    if (animate && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
      const vacated = [];
      const filled = [];
      for (let i = 0; i < 64; i++) {
        if (old[i] === pieces[i]) continue;
        if (old[i]) vacated.push(i);
        if (pieces[i]) filled.push(i);
      }
      // Exact matches first (moves, castling), then pawns that became another piece (promotion).
      const moves = [];
      for (const exact of [true, false]) {
        for (const to of filled) {
          if (moves.some((m) => m.to === to)) continue;
          let best = -1;
          let bestDistance = Infinity;
          for (const from of vacated) {
            const fits = exact ? old[from] === pieces[to] : isPromotion(old[from], pieces[to]);
            if (!fits) continue;
            const d = Math.hypot((from & 7) - (to & 7), (from >> 3) - (to >> 3));
            if (d < bestDistance) {
              bestDistance = d;
              best = from;
            }
          }
          if (best >= 0) {
            vacated.splice(vacated.indexOf(best), 1);
            moves.push({ piece: pieces[to], from: best, to });
          }
        }
      }
      if (moves.length) this.animation = { start: performance.now(), moves };
    }
    this.requestDraw();
  }

  /** Side of one square in canvas pixels. */
  get square() {
    return this.canvas.width / 8;
  }

  /**
   * Top-left corner of a square (index) in canvas pixels, respecting orientation.
   * @param {number} index
   */
  corner(index) {
    const s = this.square;
    const file = index & 7;
    const rank = index >> 3;
    const white = this.state.orientation === "white";
    return { x: (white ? file : 7 - file) * s, y: (white ? 7 - rank : rank) * s };
  }

  /**
   * The square name under a point given in CSS pixels from the canvas's top-left corner, or null.
   * @param {number} x
   * @param {number} y
   */
  squareAt(x, y) {
    if (!this.cssSize) return null;
    const col = Math.floor((x / this.cssSize) * 8);
    const row = Math.floor((y / this.cssSize) * 8);
    if (col < 0 || col > 7 || row < 0 || row > 7) return null;
    const white = this.state.orientation === "white";
    const file = white ? col : 7 - col;
    const rank = white ? 7 - row : row;
    return squareName(rank * 8 + file);
  }

  /**
   * Squares the promotion chooser occupies, from the edge inwards, with their choice.
   * @returns {{square: string, piece: string}[]}
   */
  promotionSquares() {
    const promo = this.state.promotion;
    if (!promo) return [];
    const to = squareIndex(promo.to);
    const file = to & 7;
    const edge = to >> 3;
    const step = edge === 7 ? -1 : 1;
    return promo.choices.map((piece, i) => ({ square: squareName((edge + step * i) * 8 + file), piece }));
  }

  /** Draws everything now. */
  draw() {
    const { ctx, state } = this;
    const size = this.canvas.width;
    if (!size) return;
    const s = size / 8;
    const colors = { ...boardTheme(state.boardTheme), ...state.colors };
    const pieceColors = pieceTheme(state.pieceTheme);
    const now = performance.now();
    let progress = 1;
    if (this.animation) {
      progress = Math.min(1, (now - this.animation.start) / ANIMATION_MS);
      if (progress >= 1) this.animation = null;
    }

    // Squares with edges rounded to whole pixels, so neighbours meet without seams.
    for (let i = 0; i < 64; i++) {
      const { x, y } = this.corner(i);
      const light = ((i & 7) + (i >> 3)) % 2 === 1;
      ctx.fillStyle = light ? colors.light : colors.dark;
      const x0 = Math.round(x);
      const y0 = Math.round(y);
      ctx.fillRect(x0, y0, Math.round(x + s) - x0, Math.round(y + s) - y0);
    }

    const tint = (name, color) => {
      if (!name) return;
      const { x, y } = this.corner(squareIndex(name));
      ctx.fillStyle = color;
      ctx.fillRect(Math.round(x), Math.round(y), Math.round(x + s) - Math.round(x), Math.round(y + s) - Math.round(y));
    };
    if (state.lastMove) {
      tint(state.lastMove.from, colors.lastMove);
      tint(state.lastMove.to, colors.lastMove);
    }
    if (state.premove) {
      tint(state.premove.from, colors.premove);
      tint(state.premove.to, colors.premove);
    }
    tint(state.selected, colors.selected);
    if (state.drag?.over && state.drag.over !== state.drag.from) tint(state.drag.over, colors.selected);

    if (state.coordinates) this.drawCoordinates(s, colors);

    if (state.check) {
      const { x, y } = this.corner(squareIndex(state.check));
      const g = ctx.createRadialGradient(x + s / 2, y + s / 2, 0, x + s / 2, y + s / 2, s * 0.72);
      g.addColorStop(0, colors.check);
      g.addColorStop(0.35, colors.check);
      g.addColorStop(1, "rgba(230, 30, 30, 0)");
      ctx.fillStyle = g;
      ctx.fillRect(x, y, s, s);
    }

    // Pieces, leaving out the dragged one and those still travelling.
    const hidden = new Set();
    if (this.animation) for (const m of this.animation.moves) hidden.add(m.to);
    if (state.drag) hidden.add(squareIndex(state.drag.from));
    for (let i = 0; i < 64; i++) {
      if (!state.pieces[i] || hidden.has(i)) continue;
      const { x, y } = this.corner(i);
      drawPiece(ctx, state.pieces[i], x, y, s, pieceColors);
    }
    if (this.animation) {
      const t = easeOut(progress);
      for (const m of this.animation.moves) {
        const a = this.corner(m.from);
        const b = this.corner(m.to);
        drawPiece(ctx, m.piece, a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, s, pieceColors);
      }
    }

    this.drawTargets(s, colors);
    if (state.cursor) this.drawCursor(s, colors.focus ?? "#1a5fd0");
    for (const arrow of state.arrows) this.drawArrow(arrow, s, colors.arrow);

    if (state.drag) {
      const { drag } = state;
      const dpr = size / this.cssSize;
      // A finger would hide the piece: it is drawn larger and lifted above the touch point, and the square it
      // lands on (the one under the finger) gets a ring wide enough to show around the fingertip.
      if (drag.touch && drag.over) this.drawTouchRing(drag.over, s, colors.target);
      const big = s * (drag.scale ?? 1.1);
      const cx = drag.x * dpr;
      const cy = drag.y * dpr - (drag.lift ?? 0) * s;
      drawPiece(ctx, drag.piece, cx - big / 2, cy - big / 2, big, pieceColors);
    }
    if (state.promotion) this.drawPromotion(s, pieceColors);

    if (this.animation) this.requestDraw();
  }

  /** A wide ring around the square under a dragging finger. */
  drawTouchRing(square, s, color) {
    const { ctx } = this;
    const { x, y } = this.corner(squareIndex(square));
    ctx.save();
    ctx.globalAlpha = 0.5;
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.arc(x + s / 2, y + s / 2, s * 1.05, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }

  /** Rank numbers in the left column and file letters on the bottom row, in the other square colour. */
  drawCoordinates(s, colors) {
    const { ctx, state } = this;
    const white = state.orientation === "white";
    ctx.font = `600 ${Math.round(s * 0.2)}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
    for (let row = 0; row < 8; row++) {
      const rank = white ? 8 - row : row + 1;
      const file = white ? 0 : 7;
      const light = (file + rank - 1) % 2 === 1;
      ctx.fillStyle = light ? colors.dark : colors.light;
      ctx.textAlign = "left";
      ctx.textBaseline = "top";
      ctx.fillText(String(rank), s * 0.06, row * s + s * 0.05);
    }
    for (let col = 0; col < 8; col++) {
      const file = white ? col : 7 - col;
      const rank = white ? 1 : 8;
      const light = (file + rank - 1) % 2 === 1;
      ctx.fillStyle = light ? colors.dark : colors.light;
      ctx.textAlign = "right";
      ctx.textBaseline = "bottom";
      ctx.fillText(FILES[file], col * s + s * 0.95, 8 * s - s * 0.03);
    }
  }

  /** Marks for legal destinations: dot (quiet), ring (capture), dashed ring (en passant), frame (castle), diamond (promotion). */
  drawTargets(s, colors) {
    const { ctx, state } = this;
    ctx.save();
    ctx.fillStyle = colors.target;
    ctx.strokeStyle = colors.target;
    for (const target of state.targets) {
      const { x, y } = this.corner(squareIndex(target.to));
      const cx = x + s / 2;
      const cy = y + s / 2;
      ctx.setLineDash([]);
      ctx.beginPath();
      switch (target.kind) {
        case "capture":
          ctx.lineWidth = s * 0.08;
          ctx.arc(cx, cy, s * 0.45, 0, Math.PI * 2);
          ctx.stroke();
          break;
        case "en-passant":
          ctx.lineWidth = s * 0.08;
          ctx.setLineDash([s * 0.12, s * 0.08]);
          ctx.arc(cx, cy, s * 0.42, 0, Math.PI * 2);
          ctx.stroke();
          ctx.setLineDash([]);
          ctx.beginPath();
          ctx.arc(cx, cy, s * 0.1, 0, Math.PI * 2);
          ctx.fill();
          break;
        case "castle": {
          ctx.lineWidth = s * 0.07;
          const m = s * 0.1;
          roundedRectPath(ctx, x + m, y + m, s - 2 * m, s - 2 * m, s * 0.14);
          ctx.stroke();
          ctx.beginPath();
          ctx.arc(cx, cy, s * 0.12, 0, Math.PI * 2);
          ctx.fill();
          break;
        }
        case "promotion":
          if (target.capture) {
            ctx.lineWidth = s * 0.08;
            ctx.arc(cx, cy, s * 0.45, 0, Math.PI * 2);
            ctx.stroke();
            ctx.beginPath();
          }
          ctx.moveTo(cx, cy - s * 0.2);
          ctx.lineTo(cx + s * 0.2, cy);
          ctx.lineTo(cx, cy + s * 0.2);
          ctx.lineTo(cx - s * 0.2, cy);
          ctx.closePath();
          ctx.fill();
          break;
        default:
          ctx.arc(cx, cy, s * 0.16, 0, Math.PI * 2);
          ctx.fill();
      }
    }
    ctx.restore();
  }

  /** The keyboard focus square: a double frame (dark inside light) that shows on either square colour. */
  drawCursor(s, color) {
    const { ctx } = this;
    const { x, y } = this.corner(squareIndex(this.state.cursor));
    const w = Math.max(2, s * 0.06);
    ctx.save();
    ctx.lineWidth = w;
    ctx.strokeStyle = "#ffffff";
    ctx.strokeRect(x + w / 2, y + w / 2, s - w, s - w);
    ctx.strokeStyle = color;
    ctx.strokeRect(x + w * 1.5, y + w * 1.5, s - 3 * w, s - 3 * w);
    ctx.restore();
  }

  /** An arrow between two square centres. */
  drawArrow({ from, to, color: own, weight = 1 }, s, color) {
    const { ctx } = this;
    const a = this.corner(squareIndex(from));
    const b = this.corner(squareIndex(to));
    if (from === to) {
      // A circle: a ring inside the square.
      ctx.save();
      ctx.strokeStyle = own ?? color;
      ctx.lineWidth = s * 0.07 * weight;
      ctx.beginPath();
      ctx.arc(a.x + s / 2, a.y + s / 2, s * 0.44, 0, Math.PI * 2);
      ctx.stroke();
      ctx.restore();
      return;
    }
    const x1 = a.x + s / 2;
    const y1 = a.y + s / 2;
    const x2 = b.x + s / 2;
    const y2 = b.y + s / 2;
    const angle = Math.atan2(y2 - y1, x2 - x1);
    const head = s * 0.42;
    const length = Math.hypot(x2 - x1, y2 - y1);
    ctx.save();
    ctx.translate(x1, y1);
    ctx.rotate(angle);
    ctx.fillStyle = own ?? color;
    ctx.beginPath();
    const w = s * 0.085 * weight;
    ctx.moveTo(s * 0.15, -w);
    ctx.lineTo(length - head, -w);
    ctx.lineTo(length - head, -head * 0.6);
    ctx.lineTo(length - s * 0.05, 0);
    ctx.lineTo(length - head, head * 0.6);
    ctx.lineTo(length - head, w);
    ctx.lineTo(s * 0.15, w);
    ctx.closePath();
    ctx.fill();
    ctx.restore();
  }

  /** The promotion chooser: the board dimmed, and the choices in a column from the promotion square. */
  drawPromotion(s, pieceColors) {
    const { ctx, state } = this;
    ctx.fillStyle = "rgba(0, 0, 0, 0.45)";
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    const focus = state.promotion.focus ?? -1;
    this.promotionSquares().forEach(({ square, piece }, i) => {
      const { x, y } = this.corner(squareIndex(square));
      ctx.fillStyle = "rgba(250, 250, 247, 0.96)";
      ctx.beginPath();
      ctx.arc(x + s / 2, y + s / 2, s * 0.48, 0, Math.PI * 2);
      ctx.fill();
      if (i === focus) {
        // The keyboard's current choice, ringed in the focus colour.
        ctx.strokeStyle = state.colors.focus ?? "#1a5fd0";
        ctx.lineWidth = Math.max(2, s * 0.06);
        ctx.stroke();
      }
      const letter = state.promotion.white ? piece.toUpperCase() : piece.toLowerCase();
      drawPiece(ctx, letter, x + s * 0.08, y + s * 0.06, s * 0.84, pieceColors);
    });
  }

  /** Stops observing size changes. */
  destroy() {
    this.observer.disconnect();
    cancelAnimationFrame(this.frame);
    this.dprQuery?.list.removeEventListener("change", this.dprQuery.listener);
  }
}

/** Whether a pawn letter may have become this piece letter by promotion (same colour). */
function isPromotion(pawn, piece) {
  if (pawn !== "P" && pawn !== "p") return false;
  return (pawn === "P") === (piece === piece.toUpperCase());
}

/** Cubic ease-out. */
function easeOut(t) {
  return 1 - (1 - t) ** 3;
}

/** Adds a rounded rectangle to the current path. */
function roundedRectPath(ctx, x, y, w, h, r) {
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}
