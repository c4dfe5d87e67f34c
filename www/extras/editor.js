// The position editor, loaded on demand: a board of 64 buttons, a palette of pieces, side to move, castling rights
// and the en passant square. Pieces go on by click, tap, drag or keyboard; the rules' FEN checker says what is wrong
// with the position as it is edited, and "Play from here" starts a game from it only when it is legal.

import { drawPiece } from "../board/pieces.js";
import { boardTheme, pieceTheme } from "../board/themes.js";

const STYLE_URL = new URL("./editor.css", import.meta.url).href;
const FILES = "abcdefgh";
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
/** The palette: white pieces, black pieces, and the eraser (""). */
const PALETTE = ["K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p", ""];
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
/** Pointer travel in CSS pixels before a press becomes a drag. */
const DRAG_PX = 4;

/** "N" → "white knight". */
const pieceName = (letter) => `${letter === letter.toUpperCase() ? "white" : "black"} ${NAMES[letter.toLowerCase()]}`;

/** Square name of index 0..63 (a1 = 0). */
const squareName = (index) => FILES[index % 8] + (Math.floor(index / 8) + 1);

const MARKUP = `
<form method="dialog" class="dialog-form editor-form">
  <h2 id="editor-title">Set up a position</h2>
  <p class="sr-only" data-field="editor-say" aria-live="polite"></p>
  <p class="hint-text" id="editor-help">Choose a piece, then click or tap squares to put it there (again to remove it), or drag pieces on, around and off the board. With the keyboard: arrow keys move between squares, Enter puts the chosen piece, Delete empties a square, and the letters K Q R B N P (Shift for White) put that piece.</p>
  <div class="editor-main">
    <div class="editor-board" role="group" aria-label="Board being set up" aria-describedby="editor-help"></div>
    <div class="editor-side">
      <fieldset class="editor-palette"><legend>Piece to place</legend></fieldset>
      <fieldset><legend>Side to move</legend>
        <label><input type="radio" name="turn" value="w" checked> White</label>
        <label><input type="radio" name="turn" value="b"> Black</label>
      </fieldset>
      <fieldset><legend>Castling rights</legend>
        <label><input type="checkbox" name="castle" value="K"> White O-O</label>
        <label><input type="checkbox" name="castle" value="Q"> White O-O-O</label>
        <label><input type="checkbox" name="castle" value="k"> Black O-O</label>
        <label><input type="checkbox" name="castle" value="q"> Black O-O-O</label>
      </fieldset>
      <label class="row">En passant <select name="ep"><option value="-">none</option></select></label>
      <div class="row buttons">
        <button type="button" data-edit="start">Start position</button>
        <button type="button" data-edit="clear">Empty board</button>
      </div>
    </div>
  </div>
  <label class="stack">FEN <input type="text" name="fen" spellcheck="false" autocomplete="off" aria-describedby="editor-check"></label>
  <p class="editor-check" id="editor-check" role="status" aria-live="polite" tabindex="-1"></p>
  <menu><button value="cancel" formnovalidate>Cancel</button><button type="button" data-edit="play" class="primary">Play from here</button></menu>
</form>`;

/** The editor of one player element. */
class PositionEditor {
  /** @param {any} host the <homeostat-chess> element */
  constructor(host) {
    this.host = host;
    /** 64 FEN letters ("" when empty) from a1. */
    this.squares = new Array(64).fill("");
    this.tool = "P";
    this.focus = 0;
    this.drag = null;
    this.images = pieceImages(host.settings.pieceTheme);
    this.build();
  }

  build() {
    const dialog = document.createElement("dialog");
    dialog.className = "dialog editor-dialog";
    dialog.dataset.dialog = "editor";
    dialog.setAttribute("aria-labelledby", "editor-title");
    // The stylesheet goes into the shadow tree at once; the editor opens once it has loaded (or failed), so it never
    // shows unstyled on a slow network.
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = STYLE_URL;
    this.styled = new Promise((resolve) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true });
    });
    this.host.shadowRoot.append(link);
    dialog.innerHTML = MARKUP;
    this.dialog = dialog;
    this.form = dialog.querySelector("form");
    const theme = boardTheme(this.host.settings.boardTheme);
    dialog.style.setProperty("--editor-light", theme.light);
    dialog.style.setProperty("--editor-dark", theme.dark);
    this.board = dialog.querySelector(".editor-board");
    // Rank 8 at the top, as White sees the board.
    for (let row = 7; row >= 0; row--) {
      for (let file = 0; file < 8; file++) {
        const index = row * 8 + file;
        const square = document.createElement("button");
        square.type = "button";
        square.className = `editor-square ${(row + file) % 2 ? "light" : "dark"}`;
        square.dataset.index = String(index);
        square.tabIndex = -1;
        this.board.append(square);
      }
    }
    const palette = dialog.querySelector(".editor-palette");
    for (const letter of PALETTE) {
      const label = document.createElement("label");
      label.className = "editor-tool";
      label.dataset.piece = letter;
      label.title = letter ? pieceName(letter) : "eraser: empties squares";
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "tool";
      input.value = letter;
      input.setAttribute("aria-label", label.title);
      input.checked = letter === this.tool;
      label.append(input, letter ? this.image(letter) : eraserMark());
      palette.append(label);
    }
    const ep = this.form.elements.ep;
    for (const file of FILES) ep.append(new Option(file, file));
    this.wire();
  }

  /** An <img> of a piece. */
  image(letter) {
    const img = document.createElement("img");
    img.src = this.images[letter];
    img.alt = "";
    img.draggable = false;
    return img;
  }

  wire() {
    const { form, board, dialog } = this;
    form.addEventListener("change", (event) => {
      const target = /** @type {HTMLInputElement} */ (event.target);
      if (target.name === "tool") this.tool = target.value;
      else if (target.name === "fen") this.readFen(target.value);
      this.update();
    });
    form.elements.fen.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      this.readFen(form.elements.fen.value);
      this.update();
    });
    dialog.addEventListener("click", (event) => {
      const action = /** @type {HTMLElement} */ (event.target).closest("[data-edit]")?.dataset.edit;
      if (action === "start") this.setPosition(`${START} w KQkq - 0 1`);
      else if (action === "clear") this.setPosition("8/8/8/8/8/8/8/8 w - - 0 1");
      else if (action === "play") this.playFromHere();
      if (action) this.update();
    });
    board.addEventListener("keydown", (event) => this.onKey(event));
    // The player's own shortcuts (f flips, n starts a game, …) stay out of the editor.
    dialog.addEventListener("keydown", (event) => event.stopPropagation());
    dialog.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    dialog.addEventListener("close", () => {
      this.endDrag();
      this.host.dialogs?.hooks.closed();
    });
  }

  /** Opens the editor on `fen`. */
  open(fen) {
    if (!this.dialog.isConnected) this.host.shadowRoot.append(this.dialog);
    this.host.dialogs?.closeAll();
    this.setPosition(fen);
    this.update();
    this.dialog.showModal();
    this.squareButton(this.focus).focus();
  }

  /** Puts a FEN's fields into the editor. */
  setPosition(fen) {
    this.readFen(fen);
  }

  /** Reads what it can of a FEN typed or given: the placement, side, castling and e.p. fields. */
  readFen(text) {
    const [placement = "", turn = "w", castling = "-", ep = "-"] = text.trim().split(/\s+/);
    const rows = placement.split("/");
    if (rows.length !== 8) return;
    const squares = new Array(64).fill("");
    for (let i = 0; i < 8; i++) {
      let file = 0;
      for (const c of rows[i]) {
        if (/[1-8]/.test(c)) file += Number(c);
        else if (/[kqrbnp]/i.test(c) && file < 8) squares[(7 - i) * 8 + file++] = c;
        else return;
      }
    }
    this.squares = squares;
    const f = this.form.elements;
    f.turn.value = turn === "b" ? "b" : "w";
    for (const box of f.castle) box.checked = castling.includes(box.value);
    f.ep.value = /^[a-h][36]$/.test(ep) ? ep[0] : "-";
  }

  /** The position as FEN from the editor's fields. */
  fen() {
    const rows = [];
    for (let row = 7; row >= 0; row--) {
      let text = "";
      let empty = 0;
      for (let file = 0; file < 8; file++) {
        const piece = this.squares[row * 8 + file];
        if (!piece) empty++;
        else {
          text += (empty || "") + piece;
          empty = 0;
        }
      }
      rows.push(text + (empty || ""));
    }
    const f = this.form.elements;
    const turn = f.turn.value;
    const castling = [...f.castle].filter((box) => box.checked).map((box) => box.value).join("") || "-";
    const ep = f.ep.value === "-" ? "-" : f.ep.value + (turn === "w" ? "6" : "3");
    return `${rows.join("/")} ${turn} ${castling} ${ep} 0 1`;
  }

  /** What the rules say of the position: null when it can be played, else what is wrong. */
  check(fen) {
    try {
      const game = new this.host.rules.Game(fen);
      const over = game.outcome();
      game.free?.();
      return over ? `the game would already be over (${over.text})` : null;
    } catch (err) {
      return (err instanceof Error ? err.message : String(err)).replace(/^FEN( field \d)?: /, "");
    }
  }

  /** Redraws the squares, the FEN and the checker's verdict. */
  update() {
    for (const square of this.board.children) {
      const button = /** @type {HTMLButtonElement} */ (square);
      const index = Number(button.dataset.index);
      const piece = this.squares[index];
      button.replaceChildren(...(piece ? [this.image(piece)] : []));
      button.setAttribute("aria-label", `${squareName(index)}, ${piece ? pieceName(piece) : "empty"}`);
      button.tabIndex = index === this.focus ? 0 : -1;
    }
    for (const tool of this.dialog.querySelectorAll(".editor-tool")) tool.classList.toggle("chosen", tool.dataset.piece === this.tool);
    // The e.p. square's rank follows the side to move.
    const rank = this.form.elements.turn.value === "w" ? "6" : "3";
    for (const option of this.form.elements.ep.options) if (option.value !== "-") option.text = option.value + rank;
    const fen = this.fen();
    this.form.elements.fen.value = fen;
    const problem = this.check(fen);
    const line = this.dialog.querySelector(".editor-check");
    line.textContent = problem ? `Not playable: ${problem}.` : `Ready: ${this.form.elements.turn.value === "w" ? "White" : "Black"} to move.`;
    line.dataset.error = String(Boolean(problem));
  }

  /** Starts a game from the position when the rules accept it; otherwise the reason stays in view. */
  playFromHere() {
    const fen = this.fen();
    if (this.check(fen)) {
      this.dialog.querySelector(".editor-check").focus?.();
      return;
    }
    const error = this.host.replaceGame(() => new this.host.rules.Game(fen));
    if (!error) this.dialog.close();
  }

  /**
   * Puts `piece` ("" empties) on a square; the chosen piece on a square holding it already empties it.
   * @param {number} index
   * @param {string} piece
   * @param {boolean} [toggle]
   */
  put(index, piece, toggle = false) {
    this.squares[index] = toggle && this.squares[index] === piece ? "" : piece;
    this.update();
    // Said inside the dialog: the player's own live region is inert behind the modal.
    this.dialog.querySelector("[data-field=editor-say]").textContent = `${squareName(index)}: ${this.squares[index] ? pieceName(this.squares[index]) : "empty"}`;
  }

  squareButton(index) {
    return /** @type {HTMLButtonElement} */ (this.board.querySelector(`[data-index="${index}"]`));
  }

  /** Keys on the board: arrows move, Enter/Space put the chosen piece, Delete empties, piece letters put pieces. */
  onKey(event) {
    const index = Number(/** @type {HTMLElement} */ (event.target).dataset?.index);
    if (!Number.isInteger(index)) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: 8, ArrowDown: -8 };
    let used = true;
    if (event.key in moves) {
      const next = index + moves[event.key];
      const sameRow = Math.abs(moves[event.key]) === 8 || Math.floor(next / 8) === Math.floor(index / 8);
      if (next >= 0 && next < 64 && sameRow) {
        this.focus = next;
        this.update();
        this.squareButton(next).focus();
      }
    } else if (event.key === "Enter" || event.key === " ") this.put(index, this.tool, true);
    else if (event.key === "Delete" || event.key === "Backspace") this.put(index, "");
    else if (/^[kqrbnp]$/i.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) this.put(index, event.key);
    else used = false;
    if (used) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  /** A press on a square or a palette piece: a click when it stays put, a drag when it moves. */
  onPointerDown(event) {
    if (event.button !== 0) return;
    const target = /** @type {HTMLElement} */ (event.target);
    const square = target.closest(".editor-square");
    const tool = target.closest(".editor-tool");
    if (!square && !tool) return;
    const from = square ? Number(square.dataset.index) : null;
    const piece = square ? this.squares[from] : tool.dataset.piece;
    event.preventDefault();
    this.drag = { from, piece, x: event.clientX, y: event.clientY, moved: false, ghost: null, tool };
    const move = (e) => this.onDragMove(e);
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      this.onDrop(e);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  onDragMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_PX) return;
    if (!drag.piece) return;
    if (!drag.moved) {
      drag.moved = true;
      drag.ghost = this.image(drag.piece);
      drag.ghost.className = "editor-ghost";
      this.dialog.append(drag.ghost);
      if (drag.from !== null) this.squareButton(drag.from).classList.add("lifted");
    }
    const size = this.squareButton(0).getBoundingClientRect().width;
    const box = this.dialog.getBoundingClientRect();
    drag.ghost.style.width = `${size}px`;
    drag.ghost.style.transform = `translate(${event.clientX - box.left - size / 2}px, ${event.clientY - box.top - size / 2}px)`;
  }

  /** The end of a press: a click chooses the tool or puts it; a drag puts, moves or (off the board) removes. */
  onDrop(event) {
    const drag = this.drag;
    this.endDrag();
    if (!drag) return;
    if (!drag.moved) {
      if (drag.tool) {
        const input = drag.tool.querySelector("input");
        input.checked = true;
        input.focus();
        this.tool = input.value;
        this.update();
      } else if (drag.from !== null) {
        this.focus = drag.from;
        this.put(drag.from, this.tool, true);
      }
      return;
    }
    const under = this.host.shadowRoot.elementFromPoint?.(event.clientX, event.clientY) ?? null;
    const square = under?.closest?.(".editor-square");
    if (drag.from !== null) this.squares[drag.from] = "";
    if (square) {
      this.focus = Number(square.dataset.index);
      this.put(this.focus, drag.piece);
    } else this.update();
  }

  endDrag() {
    this.drag?.ghost?.remove();
    for (const lifted of this.board.querySelectorAll(".lifted")) lifted.classList.remove("lifted");
    this.drag = null;
  }
}

/** The eraser's mark in the palette. */
function eraserMark() {
  const mark = document.createElement("span");
  mark.textContent = "✕";
  mark.setAttribute("aria-hidden", "true");
  return mark;
}

/** Data URLs of the twelve pieces in a piece theme, drawn once. */
function pieceImages(themeName) {
  const theme = pieceTheme(themeName);
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 96;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  const images = {};
  for (const letter of PALETTE.filter(Boolean)) {
    ctx.clearRect(0, 0, 96, 96);
    drawPiece(ctx, letter, 0, 0, 96, theme);
    images[letter] = canvas.toDataURL();
  }
  return images;
}

const editors = new WeakMap();

/**
 * Opens the position editor of a player element on its current position, once its stylesheet is in.
 * @param {any} host the <homeostat-chess> element
 */
export async function openEditor(host) {
  let editor = editors.get(host);
  if (!editor) editors.set(host, (editor = new PositionEditor(host)));
  await editor.styled;
  editor.open(host.fen);
  return editor;
}
