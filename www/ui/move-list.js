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
    const active = this.root.querySelector("[aria-current]") ?? this.root.lastElementChild;
    if (active) {
      const box = this.root.parentElement;
      // Measured on screen: offsetTop counts from the nearest positioned ancestor, which is the box itself.
      const top = active.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 30) box.scrollTop = top - box.clientHeight / 2;
    }
  }
}
