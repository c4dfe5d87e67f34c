// Vector chess pieces: each piece is a few Path2D parts in a 100×100 box, drawn in order with fill and outline.

/**
 * @typedef {object} PieceShape
 * @property {Path2D[]} parts  filled and outlined, back to front
 * @property {Path2D} [details]  inner lines, stroked in the detail colour
 * @property {Path2D} [dots]  small filled marks (eyes), in the detail colour
 */

/** Builds a Path2D by calling `draw` with it. */
function path(draw) {
  const p = new Path2D();
  draw(p);
  return p;
}

/** A rounded rectangle as a path (Path2D.roundRect is too new for some browsers). */
function roundedRect(x, y, w, h, r) {
  return path((p) => {
    p.moveTo(x + r, y);
    p.arcTo(x + w, y, x + w, y + h, r);
    p.arcTo(x + w, y + h, x, y + h, r);
    p.arcTo(x, y + h, x, y, r);
    p.arcTo(x, y, x + w, y, r);
    p.closePath();
  });
}

/** A circle as a path. */
function circle(x, y, r) {
  return path((p) => p.arc(x, y, r, 0, Math.PI * 2));
}

/** The base shared by every piece but the pawn. */
const base = () => roundedRect(24, 79, 52, 10, 3);

/** Makes the shapes of all six piece kinds. */
function makeShapes() {
  const pawn = {
    parts: [
      path((p) => {
        p.moveTo(27, 88);
        p.lineTo(73, 88);
        p.quadraticCurveTo(73, 75, 60, 69);
        p.quadraticCurveTo(55, 61, 57, 50);
        p.lineTo(43, 50);
        p.quadraticCurveTo(45, 61, 40, 69);
        p.quadraticCurveTo(27, 75, 27, 88);
        p.closePath();
      }),
      path((p) => p.ellipse(50, 50, 13, 4.5, 0, 0, Math.PI * 2)),
      circle(50, 33, 12.5),
    ],
  };
  const rook = {
    parts: [
      path((p) => {
        p.moveTo(33, 73);
        p.lineTo(35, 37);
        p.lineTo(65, 37);
        p.lineTo(67, 73);
        p.closePath();
      }),
      path((p) => {
        p.moveTo(28, 39);
        p.lineTo(28, 17);
        p.lineTo(37, 17);
        p.lineTo(37, 24);
        p.lineTo(45.5, 24);
        p.lineTo(45.5, 17);
        p.lineTo(54.5, 17);
        p.lineTo(54.5, 24);
        p.lineTo(63, 24);
        p.lineTo(63, 17);
        p.lineTo(72, 17);
        p.lineTo(72, 39);
        p.closePath();
      }),
      roundedRect(29, 71, 42, 9, 2),
      base(),
    ],
    details: path((p) => {
      p.moveTo(35, 39);
      p.lineTo(65, 39);
    }),
  };
  const knight = {
    parts: [
      path((p) => {
        p.moveTo(31, 80);
        p.lineTo(73, 80);
        p.bezierCurveTo(77, 60, 72, 40, 60, 28);
        p.quadraticCurveTo(53, 21, 45, 20);
        p.lineTo(42, 11);
        p.lineTo(36, 21);
        p.lineTo(31, 14);
        p.lineTo(30, 25);
        p.quadraticCurveTo(24, 31, 22, 40);
        p.lineTo(14, 55);
        p.quadraticCurveTo(12, 62, 19, 64);
        p.quadraticCurveTo(24, 66, 28, 60);
        p.quadraticCurveTo(36, 56, 45, 50);
        p.quadraticCurveTo(46, 60, 36, 68);
        p.quadraticCurveTo(30, 73, 31, 80);
        p.closePath();
      }),
      base(),
    ],
    details: path((p) => {
      p.moveTo(62, 34);
      p.quadraticCurveTo(70, 52, 67, 76);
    }),
    dots: path((p) => {
      p.arc(34, 34, 3, 0, Math.PI * 2);
      p.moveTo(21, 57);
      p.arc(19.5, 57, 1.6, 0, Math.PI * 2);
    }),
  };
  const bishop = {
    parts: [
      path((p) => {
        p.moveTo(36, 70);
        p.bezierCurveTo(26, 58, 30, 40, 50, 23);
        p.bezierCurveTo(70, 40, 74, 58, 64, 70);
        p.closePath();
      }),
      roundedRect(32, 68, 36, 8, 3),
      base(),
      circle(50, 18, 5.5),
    ],
    details: path((p) => {
      p.moveTo(50, 39);
      p.lineTo(50, 57);
      p.moveTo(41, 48);
      p.lineTo(59, 48);
    }),
  };
  const queen = {
    parts: [
      path((p) => {
        p.moveTo(30, 80);
        p.lineTo(19, 35);
        p.lineTo(35, 57);
        p.lineTo(35, 29);
        p.lineTo(45, 54);
        p.lineTo(50, 25);
        p.lineTo(55, 54);
        p.lineTo(65, 29);
        p.lineTo(65, 57);
        p.lineTo(81, 35);
        p.lineTo(70, 80);
        p.closePath();
      }),
      base(),
      circle(19, 31, 4.5),
      circle(35, 25, 4.5),
      circle(50, 21, 4.5),
      circle(65, 25, 4.5),
      circle(81, 31, 4.5),
    ],
    details: path((p) => {
      p.moveTo(31, 70);
      p.quadraticCurveTo(50, 65, 69, 70);
    }),
  };
  const king = {
    parts: [
      path((p) => {
        p.moveTo(30, 80);
        p.bezierCurveTo(12, 62, 16, 38, 32, 40);
        p.quadraticCurveTo(42, 41, 50, 52);
        p.quadraticCurveTo(58, 41, 68, 40);
        p.bezierCurveTo(84, 38, 88, 62, 70, 80);
        p.closePath();
      }),
      path((p) => {
        p.moveTo(50, 53);
        p.bezierCurveTo(40, 43, 44, 34, 50, 31);
        p.bezierCurveTo(56, 34, 60, 43, 50, 53);
        p.closePath();
      }),
      path((p) => {
        p.moveTo(47, 30);
        p.lineTo(47, 22);
        p.lineTo(41, 22);
        p.lineTo(41, 16);
        p.lineTo(47, 16);
        p.lineTo(47, 9);
        p.lineTo(53, 9);
        p.lineTo(53, 16);
        p.lineTo(59, 16);
        p.lineTo(59, 22);
        p.lineTo(53, 22);
        p.lineTo(53, 30);
        p.closePath();
      }),
      base(),
    ],
    details: path((p) => {
      p.moveTo(31, 70);
      p.quadraticCurveTo(50, 64, 69, 70);
    }),
  };
  return { p: pawn, r: rook, n: knight, b: bishop, q: queen, k: king };
}

let shapes = null;

/**
 * The shape of a piece kind ("p", "n", "b", "r", "q", "k"), built on first use.
 * @param {string} kind
 * @returns {PieceShape}
 */
export function pieceShape(kind) {
  shapes ??= makeShapes();
  return shapes[kind.toLowerCase()];
}

/**
 * Draws a piece given by its FEN letter (upper case white) with its top-left corner at (x, y).
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} letter FEN piece letter
 * @param {number} x
 * @param {number} y
 * @param {number} size side of the square in canvas pixels
 * @param {import("./themes.js").PieceTheme} theme
 */
export function drawPiece(ctx, letter, x, y, size, theme) {
  const shape = pieceShape(letter);
  if (!shape) return;
  const white = letter === letter.toUpperCase();
  ctx.save();
  ctx.translate(x, y);
  ctx.scale(size / 100, size / 100);
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  ctx.lineWidth = theme.lineWidth;
  ctx.fillStyle = white ? theme.whiteFill : theme.blackFill;
  ctx.strokeStyle = white ? theme.whiteLine : theme.blackLine;
  for (const part of shape.parts) {
    ctx.fill(part);
    ctx.stroke(part);
  }
  const detail = white ? theme.whiteLine : theme.blackDetail;
  if (shape.details) {
    ctx.strokeStyle = detail;
    ctx.lineWidth = theme.lineWidth * 0.8;
    ctx.stroke(shape.details);
  }
  if (shape.dots) {
    ctx.fillStyle = detail;
    ctx.fill(shape.dots);
  }
  ctx.restore();
}
