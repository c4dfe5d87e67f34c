// The move list in SAN, two moves per row; clicking a move shows the position after it.

/** Renders numbered SAN pairs and reports clicks as the ply reached (1 = after White's first move). */
export class MoveList {
  /**
   * @param {HTMLElement} root an ordered container
   * @param {(ply: number) => void} onSelect
   */
  constructor(root, onSelect) {
    this.root = root;
    root.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-ply]");
      if (button) onSelect(Number(button.dataset.ply));
    });
    // The box shares its column with panels that grow and shrink (the thinking lines, the opening's name, the review
    // panel), and its rows change height as styles and fonts arrive, so the move shown can slip out of view with no
    // render. It is kept in view on any such change, unless the person has scrolled it out of view themselves. A
    // scroll is the person's when their input on the box (wheel, pointer, touch or key) came since the list last
    // placed the move; it is never judged by timing or sizes, which differ between engines and under load. Any other
    // scroll that leaves the move out of view while following (a browser's late echo of an earlier position, or a
    // clamp as the box resizes) is undone.
    this.follow = true;
    this.touched = false;
    /** What the list shows now, so that drawing the same again changes nothing. */
    this.shown = "";
    const box = root.parentElement;
    if (typeof ResizeObserver === "function" && box) {
      const touch = () => {
        this.touched = true;
      };
      for (const type of ["wheel", "pointerdown", "touchstart", "keydown"]) box.addEventListener(type, touch, { passive: true });
      box.addEventListener("scroll", () => {
        if (this.touched) this.follow = this.inView();
        else if (this.follow) this.keepInView();
      }, { passive: true });
      const observer = new ResizeObserver(() => {
        if (this.follow) this.keepInView();
      });
      observer.observe(box);
      observer.observe(root);
    }
  }

  /**
   * Shows the moves, marking the current ply.
   * @param {string[]} sans
   * @param {number} current ply shown on the board
   * @param {boolean} blackStarts whether the first move is Black's
   * @param {number} firstMoveNumber full-move number of the first move
   * @param {string} [result] result text after the last move, such as "1-0"
   */
  render(sans, current, blackStarts, firstMoveNumber, result) {
    // The player redraws on every change (a setting, the opening book arriving, a panel loading): the same moves and
    // ply are drawn afresh (the review marks them again) but leave the list where the person scrolled it.
    const shown = JSON.stringify([sans, current, blackStarts, firstMoveNumber, result ?? null]);
    const same = shown === this.shown;
    this.shown = shown;
    const box = this.root.parentElement;
    const scrolled = box?.scrollTop ?? 0;
    const fragment = document.createDocumentFragment();
    let row = null;
    const offset = blackStarts ? 1 : 0;
    sans.forEach((san, i) => {
      const slot = i + offset;
      if (slot % 2 === 0 || !row) {
        row = document.createElement("li");
        const number = document.createElement("span");
        number.className = "move-number";
        number.textContent = `${firstMoveNumber + Math.floor(slot / 2)}.`;
        row.append(number);
        if (slot % 2 === 1) {
          const gap = document.createElement("span");
          gap.className = "move gap";
          gap.textContent = "…";
          row.append(gap);
        }
        fragment.append(row);
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.ply = String(i + 1);
      button.textContent = san;
      if (i + 1 === current) button.setAttribute("aria-current", "true");
      row.append(button);
    });
    if (result) {
      const end = document.createElement("li");
      end.className = "move-result";
      end.textContent = result;
      fragment.append(end);
    }
    this.root.replaceChildren(fragment);
    if (same) {
      // Neither following nor the person's scroll changes: a redraw in the middle of their wheel leaves it theirs.
      if (box) box.scrollTop = scrolled;
      return;
    }
    this.follow = true;
    this.keepInView();
  }

  /** Scrolls the list's box, when the move shown (or else the last line) is not wholly in it, to centre it. */
  keepInView() {
    const seen = this.span();
    if (seen && !this.inView(seen)) {
      const box = this.root.parentElement;
      box.scrollTop = seen.top - (box.clientHeight - (seen.bottom - seen.top)) / 2;
    }
    // Scrolls from here on are the list's own until the person touches the box again.
    this.touched = false;
  }

  /** Whether the move shown (or else the last line) is wholly in the box's visible part. */
  inView(seen = this.span()) {
    return !seen || (seen.top >= seen.scrollTop - 0.5 && seen.bottom <= seen.scrollTop + this.root.parentElement.clientHeight + 0.5);
  }

  /** Where the move shown (or else the last line) lies in the box's scrolled content, and the box's scroll. */
  span() {
    const active = this.root.querySelector("[aria-current]") ?? this.root.lastElementChild;
    const box = this.root.parentElement;
    if (!active || !box || box.clientHeight === 0) return null;
    // Measured on screen: offsetTop counts from the nearest positioned ancestor, which is the box itself.
    const origin = box.getBoundingClientRect().top + box.clientTop - box.scrollTop;
    const at = active.getBoundingClientRect();
    return { top: at.top - origin, bottom: at.bottom - origin, scrollTop: box.scrollTop };
  }
}
