// The checkers board's square geometry (www/checkers/board.js), which turns clicks into PDN squares: every square
// 1-32 maps to a dark cell and back, PDN's numbering runs from Black's back row, and jumps find the square between.

import assert from "node:assert/strict";
import { test } from "node:test";
import { jumpedSquare, rowCol, squareAt } from "../../www/checkers/board.js";

test("squares 1-32 and the dark cells map onto each other", () => {
  const seen = new Set();
  for (let square = 1; square <= 32; square++) {
    const { row, col } = rowCol(square);
    assert.equal((row + col) % 2, 1, `square ${square} is dark`);
    assert.equal(squareAt(row, col), square);
    seen.add(`${row},${col}`);
  }
  assert.equal(seen.size, 32);
  for (let row = 0; row < 8; row++) for (let col = 0; col < 8; col++) if ((row + col) % 2 === 0) assert.equal(squareAt(row, col), null);
  assert.equal(squareAt(-1, 0), null);
  assert.equal(squareAt(8, 1), null);
});

test("PDN numbering: 1-4 on Black's back row, 29-32 on White's, 1 second from the left as White sees it", () => {
  assert.deepEqual(rowCol(1), { row: 0, col: 1 });
  assert.deepEqual(rowCol(4), { row: 0, col: 7 });
  assert.deepEqual(rowCol(5), { row: 1, col: 0 });
  assert.deepEqual(rowCol(29), { row: 7, col: 0 });
  assert.deepEqual(rowCol(32), { row: 7, col: 6 });
});

test("a jump's middle square", () => {
  assert.equal(jumpedSquare(1, 10), 6);
  assert.equal(jumpedSquare(10, 19), 15);
  assert.equal(jumpedSquare(19, 28), 24);
  assert.equal(jumpedSquare(22, 31), 26);
  assert.equal(jumpedSquare(15, 24), 19);
  assert.equal(jumpedSquare(11, 15), null, "a step is not a jump");
});
