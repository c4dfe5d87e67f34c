// The checkers board on a canvas: the 8×8 grid with the 32 dark squares numbered as in PDN, men and kings,
// the last move, the selected piece and its targets, a capture under way, the pieces that must capture,
// and the keyboard cursor. It only draws what it is given and maps points to squares; it decides nothing.

/** Colours of the board and marks. */
const COLORS = {
  light: "#ecd9b6",
  dark: "#9a6b47",
  number: "rgba(255, 244, 222, 0.55)",
  lastMove: "rgba(246, 214, 76, 0.42)",
  selected: "rgba(64, 190, 110, 0.95)",
  target: "rgba(34, 120, 60, 0.62)",
  mustCapture: "rgba(235, 64, 40, 0.95)",
  trail: "rgba(64, 190, 110, 0.75)",
  cursor: "#3d8bfd",
};

/** Milliseconds an animated move takes per step or jump. */
const LEG_MS = 150;

/**
 * The row (0 at Black's back row) and column (0-7, left to right as White sees the board) of a square 1-32.
 * @param {number} square
 */
export function rowCol(square) {
  const row = Math.floor((square - 1) / 4);
  const k = (square - 1) % 4;
  return { row, col: row % 2 === 0 ? 2 * k + 1 : 2 * k };
}

/**
 * The square number at a row and column, or null for a light square or off the board.
 * @param {number} row
 * @param {number} col
 */
export function squareAt(row, col) {
  if (row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 === 0) return null;
  return row * 4 + Math.floor(col / 2) + 1;
}

/**
 * The square jumped over between two landing squares of a capture, or null when they are not a jump apart.
 * @param {number} a
 * @param {number} b
 */
export function jumpedSquare(a, b) {
  const p = rowCol(a);
  const q = rowCol(b);
  if (Math.abs(p.row - q.row) !== 2 || Math.abs(p.col - q.col) !== 2) return null;
  return squareAt((p.row + q.row) / 2, (p.col + q.col) / 2);
}

/**
 * What the board shows.
 * @typedef {object} BoardView
 * @property {string[]} pieces 32 entries: "", "b", "w" (men), "B", "W" (kings)
 * @property {"white" | "black"} orientation the side at the bottom
 * @property {number[] | null} lastMove the last move's path
 * @property {number | null} selected the selected piece's square
 * @property {number[]} partial the landing squares clicked so far in a capture under way (the piece is drawn on the last)
 * @property {number[]} targets squares the selected piece may land on next
 * @property {number[]} mustCapture pieces marked because they must capture
 * @property {{row: number, col: number} | null} cursor the keyboard cursor, in board rows and columns
 */

/** Draws a {@link BoardView} on a canvas, sized to its element's box. */
export class CheckersBoard {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    /** @type {BoardView} */
    this.view = { pieces: new Array(32).fill(""), orientation: "white", lastMove: null, selected: null, partial: [], targets: [], mustCapture: [], cursor: null };
    this.size = 0;
  }

  /**
   * Changes part of the view and redraws.
   * @param {Partial<BoardView>} changes
   */
  update(changes) {
    Object.assign(this.view, changes);
    this.draw();
  }

  /**
   * Slides `piece` along `path` (a move just played; the view already shows the position after it), unless the
   * person asked for reduced motion.
   * @param {number[]} path
   * @param {string} piece
   */
  animate(path, piece) {
    if (path.length < 2 || !piece || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    this.animation = { path, piece, start: performance.now() };
    const frame = () => {
      this.draw();
      if (this.animation) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  /** Matches the canvas's pixels to its displayed size and redraws. */
  fit() {
    const css = this.canvas.getBoundingClientRect().width;
    if (!css) return;
    const ratio = window.devicePixelRatio || 1;
    const pixels = Math.round(css * ratio);
    if (pixels !== this.canvas.width) {
      this.canvas.width = pixels;
      this.canvas.height = pixels;
    }
    this.size = pixels;
    this.draw();
  }

  /** Screen cell (0-7 from the top-left) of a board row and column, after orientation. */
  #cell(row, col) {
    return this.view.orientation === "black" ? { x: 7 - col, y: 7 - row } : { x: col, y: row };
  }

  /**
   * The board row and column under a point given in CSS pixels from the canvas's top-left corner, or null.
   * @param {number} x
   * @param {number} y
   */
  pointToRowCol(x, y) {
    const css = this.canvas.getBoundingClientRect().width;
    if (!css) return null;
    const cx = Math.floor((x / css) * 8);
    const cy = Math.floor((y / css) * 8);
    if (cx < 0 || cx > 7 || cy < 0 || cy > 7) return null;
    return this.view.orientation === "black" ? { row: 7 - cy, col: 7 - cx } : { row: cy, col: cx };
  }

  /**
   * The centre of a square in CSS pixels from the canvas's top-left corner (for tests and pages).
   * @param {number} square
   */
  squareCenter(square) {
    const css = this.canvas.getBoundingClientRect().width;
    const { row, col } = rowCol(square);
    const { x, y } = this.#cell(row, col);
    return { x: ((x + 0.5) * css) / 8, y: ((y + 0.5) * css) / 8 };
  }

  /** Redraws everything. */
  draw() {
    const ctx = this.canvas.getContext("2d");
    const size = this.canvas.width;
    if (!ctx || !size) return;
    const cell = size / 8;
    const v = this.view;
    ctx.clearRect(0, 0, size, size);
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const { x, y } = this.#cell(row, col);
        ctx.fillStyle = (row + col) % 2 ? COLORS.dark : COLORS.light;
        ctx.fillRect(x * cell, y * cell, cell, cell);
      }
    }
    // A soft inner shade on the dark squares, so the board reads as wood rather than flat paint.
    for (let s = 1; s <= 32; s++) {
      const { x, y } = this.#squareBox(s, cell);
      const shade = ctx.createLinearGradient(x, y, x + cell, y + cell);
      shade.addColorStop(0, "rgba(255,255,255,0.06)");
      shade.addColorStop(1, "rgba(0,0,0,0.10)");
      ctx.fillStyle = shade;
      ctx.fillRect(x, y, cell, cell);
    }
    for (const s of v.lastMove ?? []) this.#tint(ctx, s, cell, COLORS.lastMove);
    ctx.fillStyle = COLORS.number;
    ctx.font = `600 ${Math.max(8, Math.round(cell * 0.16))}px system-ui, sans-serif`;
    ctx.textBaseline = "top";
    for (let s = 1; s <= 32; s++) {
      const { x, y } = this.#squareBox(s, cell);
      ctx.fillText(String(s), x + cell * 0.06, y + cell * 0.05);
    }
    // A capture under way: the piece stands on its latest landing square, the men it took so far fade.
    const moving = v.partial.length && v.selected ? v.selected : null;
    const taken = new Set();
    if (moving) {
      const path = [moving, ...v.partial];
      for (let i = 1; i < path.length; i++) {
        const over = jumpedSquare(path[i - 1], path[i]);
        if (over) taken.add(over);
      }
      this.#trail(ctx, path, cell);
    }
    const sliding = this.#slidingPiece(cell);
    for (let s = 1; s <= 32; s++) {
      const piece = v.pieces[s - 1];
      if (!piece || s === moving || (sliding && s === sliding.square)) continue;
      this.#piece(ctx, s, piece, cell, taken.has(s) ? 0.35 : 1);
    }
    if (sliding) this.#pieceAt(ctx, sliding.x, sliding.y, sliding.piece, cell, 1);
    for (const s of v.mustCapture) this.#ring(ctx, s, cell, COLORS.mustCapture, 0.09);
    const shownAt = moving ? v.partial[v.partial.length - 1] : v.selected;
    if (moving) this.#piece(ctx, shownAt, v.pieces[moving - 1], cell, 1);
    if (shownAt) this.#ring(ctx, shownAt, cell, COLORS.selected, 0.075);
    for (const s of v.targets) this.#dot(ctx, s, cell);
    if (v.cursor) {
      const { x, y } = this.#cell(v.cursor.row, v.cursor.col);
      ctx.strokeStyle = COLORS.cursor;
      ctx.lineWidth = Math.max(2, cell * 0.05);
      const inset = ctx.lineWidth / 2;
      ctx.strokeRect(x * cell + inset, y * cell + inset, cell - 2 * inset, cell - 2 * inset);
    }
  }

  /** Where the animated piece is now ({square: its destination, x, y, piece}), or null once the animation is over. */
  #slidingPiece(cell) {
    const a = this.animation;
    if (!a) return null;
    const legs = a.path.length - 1;
    const t = (performance.now() - a.start) / (LEG_MS * legs);
    if (t >= 1) {
      this.animation = null;
      return null;
    }
    const leg = Math.min(legs - 1, Math.floor(t * legs));
    const f = t * legs - leg;
    const p = this.#squareBox(a.path[leg], cell);
    const q = this.#squareBox(a.path[leg + 1], cell);
    const ease = f * f * (3 - 2 * f);
    return { square: a.path[legs], piece: a.piece, x: p.x + (q.x - p.x) * ease + cell / 2, y: p.y + (q.y - p.y) * ease + cell / 2 };
  }

  /** Top-left corner in canvas pixels of a dark square. */
  #squareBox(square, cell) {
    const { row, col } = rowCol(square);
    const { x, y } = this.#cell(row, col);
    return { x: x * cell, y: y * cell };
  }

  /** Colours a whole square (the last move). */
  #tint(ctx, square, cell, color) {
    const { x, y } = this.#squareBox(square, cell);
    ctx.fillStyle = color;
    ctx.fillRect(x, y, cell, cell);
  }

  /** A target dot in the middle of a square. */
  #dot(ctx, square, cell) {
    const { x, y } = this.#squareBox(square, cell);
    ctx.fillStyle = COLORS.target;
    ctx.beginPath();
    ctx.arc(x + cell / 2, y + cell / 2, cell * 0.15, 0, Math.PI * 2);
    ctx.fill();
  }

  /** A ring around a piece (selected, must capture). */
  #ring(ctx, square, cell, color, width) {
    const { x, y } = this.#squareBox(square, cell);
    ctx.strokeStyle = color;
    ctx.lineWidth = cell * width;
    ctx.beginPath();
    ctx.arc(x + cell / 2, y + cell / 2, cell * 0.45, 0, Math.PI * 2);
    ctx.stroke();
  }

  /** The dashed route of a capture under way. */
  #trail(ctx, path, cell) {
    ctx.strokeStyle = COLORS.trail;
    ctx.lineWidth = cell * 0.06;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.setLineDash([cell * 0.12, cell * 0.12]);
    ctx.beginPath();
    path.forEach((s, i) => {
      const { x, y } = this.#squareBox(s, cell);
      if (i === 0) ctx.moveTo(x + cell / 2, y + cell / 2);
      else ctx.lineTo(x + cell / 2, y + cell / 2);
    });
    ctx.stroke();
    ctx.setLineDash([]);
  }

  /** A man (a disc with a rim and grooves) or a king (the same with a gold crown), with a soft shadow. */
  #piece(ctx, square, piece, cell, alpha) {
    const { x, y } = this.#squareBox(square, cell);
    this.#pieceAt(ctx, x + cell / 2, y + cell / 2, piece, cell, alpha);
  }

  /** A piece centred on a point in canvas pixels (for a move being animated). */
  #pieceAt(ctx, cx, cy, piece, cell, alpha) {
    const r = cell * 0.38;
    const black = piece === "b" || piece === "B";
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.fillStyle = "rgba(0,0,0,0.35)";
    ctx.beginPath();
    ctx.ellipse(cx + r * 0.06, cy + r * 0.16, r, r * 0.96, 0, 0, Math.PI * 2);
    ctx.fill();
    const body = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.45, r * 0.1, cx, cy, r * 1.05);
    if (black) {
      body.addColorStop(0, "#5b5753");
      body.addColorStop(0.55, "#2a2826");
      body.addColorStop(1, "#141312");
    } else {
      body.addColorStop(0, "#fffdf7");
      body.addColorStop(0.6, "#efe6d2");
      body.addColorStop(1, "#cbbd9e");
    }
    ctx.fillStyle = body;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.lineWidth = Math.max(1, cell * 0.018);
    ctx.strokeStyle = black ? "rgba(0,0,0,0.8)" : "rgba(120,100,70,0.75)";
    ctx.stroke();
    ctx.strokeStyle = black ? "rgba(255,255,255,0.14)" : "rgba(120,100,70,0.38)";
    for (const f of [0.72, 0.5]) {
      ctx.beginPath();
      ctx.arc(cx, cy, r * f, 0, Math.PI * 2);
      ctx.stroke();
    }
    if (piece === "B" || piece === "W") this.#crown(ctx, cx, cy, r * 0.5);
    ctx.restore();
  }

  /** The gold crown on a king. */
  #crown(ctx, cx, cy, s) {
    ctx.beginPath();
    ctx.moveTo(cx - s, cy + s * 0.55);
    ctx.lineTo(cx - s, cy - s * 0.35);
    ctx.lineTo(cx - s * 0.5, cy + s * 0.1);
    ctx.lineTo(cx, cy - s * 0.6);
    ctx.lineTo(cx + s * 0.5, cy + s * 0.1);
    ctx.lineTo(cx + s, cy - s * 0.35);
    ctx.lineTo(cx + s, cy + s * 0.55);
    ctx.closePath();
    const gold = ctx.createLinearGradient(cx, cy - s, cx, cy + s);
    gold.addColorStop(0, "#ffe48a");
    gold.addColorStop(1, "#d39b1e");
    ctx.fillStyle = gold;
    ctx.fill();
    ctx.lineWidth = Math.max(1, s * 0.1);
    ctx.strokeStyle = "rgba(110, 70, 0, 0.85)";
    ctx.stroke();
  }
}
