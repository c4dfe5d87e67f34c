// The element's dialogs: new game, import/export, settings, help and the resignation's confirmation. They collect
// input and call back; they never touch the game themselves.

import { BOARD_THEMES, PIECE_THEMES } from "../board/themes.js";
import { parseClock } from "../game/settings.js";

/**
 * @typedef {object} DialogHooks
 * @property {(options: NewGameOptions) => string | null} startGame  returns an error message, or null on success
 * @property {(text: string, index: number) => string | null} importText  loads game `index` of the text; returns an
 *   error message, or null on success
 * @property {(text: string) => {white?: string, black?: string, event?: string, date?: string, result: string, plies: number,
 *   error?: string}[]} pgnGames  the games of a PGN text (none for a FEN)
 * @property {() => string} pgn
 * @property {() => string} fen
 * @property {() => object} settings
 * @property {(changes: object) => void} applySettings
 * @property {() => void} closed  a dialog was closed (focus goes back to the board)
 * @property {() => string} resignText  what resigning now means, in words ("Homeostat wins as Black.")
 * @property {() => void} resign  the person confirmed the resignation
 */

/**
 * @typedef {object} NewGameOptions
 * @property {"hvc"|"hvh"|"cvc"} mode
 * @property {"white"|"black"|"random"} side
 * @property {number} level
 * @property {string} think  "level", a number of milliseconds, or "adaptive"
 * @property {boolean} book
 * @property {string} fen  empty for the standard start
 */

/** Opens and wires the dialogs inside a shadow root. */
export class Dialogs {
  /**
   * @param {ShadowRoot} root
   * @param {DialogHooks} hooks
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    /** The import text whose games are listed (a Load of another text lists that one first). */
    this.listedText = "";
    this.byName = Object.fromEntries([...root.querySelectorAll("dialog[data-dialog]")].map((d) => [d.dataset.dialog, d]));
    for (const dialog of Object.values(this.byName)) dialog.addEventListener("close", () => hooks.closed());
    this.wireNewGame();
    this.wireImportExport();
    this.wireSettings();
    const resign = this.byName.resign;
    // A misclick on the flag must not end the game: only the dialog's Resign button does.
    resign?.addEventListener("close", () => resign.returnValue === "resign" && hooks.resign());
  }

  /** Whether any dialog is open. */
  get open() {
    return Object.values(this.byName).some((d) => d.open);
  }

  /**
   * Shows a dialog by name ("new", "io", "settings", "help", "resign"), first filling it from the current state.
   * @param {string} name
   */
  show(name) {
    const dialog = this.byName[name];
    if (!dialog || dialog.open) return;
    for (const other of Object.values(this.byName)) if (other.open) other.close();
    if (name === "new") this.fillNewGame();
    if (name === "io") this.fillImportExport();
    if (name === "settings") this.fillSettings();
    if (name === "resign") dialog.querySelector("[data-field=resign-text]").textContent = this.hooks.resignText();
    dialog.returnValue = "";
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }

  /** Closes every open dialog. */
  closeAll() {
    for (const d of Object.values(this.byName)) if (d.open) d.close();
  }

  fillNewGame() {
    const form = this.byName.new.querySelector("form");
    const s = this.hooks.settings();
    const mode = s.player === "both" ? "hvh" : s.player === "none" ? "cvc" : "hvc";
    form.elements.mode.value = mode;
    form.elements.side.value = s.player === "black" ? "black" : "white";
    form.elements.level.value = String(s.level);
    this.byName.new.querySelector("[data-field=level-out]").textContent = this.levelText(s.level);
    form.elements.think.value = s.think;
    form.elements.book.checked = s.book;
    this.fillClock(form, s.clock);
    form.elements.fen.value = "";
    this.byName.new.querySelector("[data-field=new-error]").textContent = "";
    this.syncSides(form);
  }

  /** A level with its measured strength, e.g. `4 · about 1640 Elo`. */
  levelText(level) {
    const elo = this.hooks.levelElo?.(Number(level));
    return elo ? `${level} · about ${elo} Elo` : String(level);
  }

  /** Side choice only matters against the computer. */
  syncSides(form) {
    form.querySelector(".sides").disabled = form.elements.mode.value !== "hvc";
  }

  wireNewGame() {
    const dialog = this.byName.new;
    const form = dialog.querySelector("form");
    const out = dialog.querySelector("[data-field=level-out]");
    form.elements.level.addEventListener("input", () => (out.textContent = this.levelText(form.elements.level.value)));
    form.addEventListener("change", () => {
      this.syncSides(form);
      this.clockChoice(form);
    });
    form.addEventListener("submit", (event) => {
      if (event.submitter?.value !== "start") return;
      const clock = this.clockChoice(form, true);
      if (!("clock" in clock)) {
        // A custom clock that does not read: its error shows beside it, and the game does not start.
        event.preventDefault();
        form.elements.clockCustom.focus();
        return;
      }
      const error = this.hooks.startGame({
        mode: form.elements.mode.value,
        side: form.elements.side.value,
        level: Number(form.elements.level.value),
        think: form.elements.think.value,
        book: form.elements.book.checked,
        fen: form.elements.fen.value.trim(),
        clock: clock.clock,
      });
      if (error) {
        event.preventDefault();
        dialog.querySelector("[data-field=new-error]").textContent = error;
      }
    });
  }

  fillImportExport() {
    const dialog = this.byName.io;
    dialog.querySelector("textarea").value = this.hooks.pgn();
    dialog.querySelector("[data-field=io-error]").textContent = "";
    this.listGames();
  }

  /**
   * Lists the games of the import text when it holds more than one, for the person to choose; returns how many.
   * @returns {number}
   */
  listGames() {
    const dialog = this.byName.io;
    const text = dialog.querySelector("textarea").value;
    const row = dialog.querySelector("[data-field=io-games]");
    const games = text.trim() ? this.hooks.pgnGames(text) : [];
    row.hidden = games.length < 2;
    this.listedText = text;
    const line = (g, i) => {
      if (g.error) return `${i + 1}. cannot be read: ${g.error}`;
      const event = [g.event, g.date].filter(Boolean).join(", ");
      return `${i + 1}. ${g.white ?? "?"} – ${g.black ?? "?"}${event ? ` · ${event}` : ""} · ${g.result} · ${Math.ceil(g.plies / 2)} moves`;
    };
    row.querySelector("select").replaceChildren(...(games.length < 2 ? [] : games.map((g, i) => new Option(line(g, i), String(i)))));
    return games.length;
  }

  wireImportExport() {
    const dialog = this.byName.io;
    const text = dialog.querySelector("textarea");
    const error = dialog.querySelector("[data-field=io-error]");
    const games = dialog.querySelector("[data-field=io-games]");
    // What went wrong shows in the error colour; guidance and confirmations in the text's own.
    const say = (message, kind = "info") => {
      error.textContent = message;
      error.dataset.kind = kind;
    };
    text.addEventListener("change", () => this.listGames());
    dialog.addEventListener("click", async (event) => {
      const action = event.target.closest("[data-io]")?.dataset.io;
      if (!action) return;
      if (action === "load") {
        // A text of several games not listed yet is listed first, so the person picks the game to open.
        const listed = !games.hidden && this.listedText === text.value;
        if (!listed && this.listGames() > 1) {
          say(`This PGN holds ${games.querySelector("select").options.length} games: choose one, then press Load.`);
          games.querySelector("select").focus();
          return;
        }
        const problem = this.hooks.importText(text.value, games.hidden ? 0 : Number(games.querySelector("select").value));
        if (problem) say(problem, "error");
        else dialog.close();
      } else if (action === "copy" || action === "copy-fen") {
        const value = action === "copy" ? this.hooks.pgn() : this.hooks.fen();
        try {
          await navigator.clipboard.writeText(value);
          say("Copied to the clipboard.");
        } catch {
          text.value = value;
          text.select();
          say("The clipboard is not available here: the text is selected, copy it with the keyboard.");
        }
      } else if (action === "download") {
        const blob = new Blob([this.hooks.pgn()], { type: "application/x-chess-pgn" });
        const link = document.createElement("a");
        link.href = URL.createObjectURL(blob);
        link.download = `homeostat-${new Date().toISOString().slice(0, 10)}.pgn`;
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 1000);
      }
    });
    dialog.querySelector("input[type=file]").addEventListener("change", async (event) => {
      const file = event.target.files?.[0];
      if (!file) return;
      text.value = await file.text();
      event.target.value = "";
      const count = this.listGames();
      say(count > 1 ? `Read ${file.name}: ${count} games; choose one, then press Load.` : `Read ${file.name}; press Load to open it.`);
    });
  }

  fillSettings() {
    const form = this.byName.settings.querySelector("form");
    const s = this.hooks.settings();
    const options = (select, themes, current) => {
      select.replaceChildren(
        ...Object.entries(themes).map(([value, theme]) => new Option(theme.label, value, false, value === current)),
      );
    };
    options(form.elements.boardTheme, BOARD_THEMES, s.boardTheme);
    options(form.elements.pieceTheme, PIECE_THEMES, s.pieceTheme);
    form.elements.coordinates.checked = s.coordinates;
    form.elements.autoQueen.checked = s.autoQueen;
    form.elements.premoves.checked = s.premoves;
    form.elements.book.checked = s.book;
    form.elements.analysis.checked = s.analysis;
    form.elements.sound.checked = s.sound;
    this.fillClock(form, s.clock);
  }

  /** Shows a time control ("5+3", or "" for none) in a dialog's clock row: a preset, or the custom field. */
  fillClock(form, clock) {
    const preset = [...form.elements.clock.options].some((option) => option.value === clock);
    form.elements.clock.value = preset ? clock : "custom";
    form.elements.clockCustom.value = preset ? "" : clock;
    form.elements.clockCustom.hidden = preset;
    form.querySelector("[data-field=clock-error]").textContent = "";
  }

  /**
   * The clock chosen in a dialog's clock row as `{clock}`, or nothing while a custom one does not read (said beside
   * it; an empty custom field only once the person presses Start).
   */
  clockChoice(form, starting = false) {
    const custom = form.elements.clock.value === "custom";
    const text = custom ? form.elements.clockCustom.value.trim() : form.elements.clock.value;
    form.elements.clockCustom.hidden = !custom;
    const reading = text ? parseClock(text) : { value: null };
    let error = "";
    if (custom && text && reading.error) error = reading.error.replace(/^clock="[^"]*": w/, "W");
    else if (custom && !text && starting) error = "Write a time control such as 2+1, or choose one.";
    form.querySelector("[data-field=clock-error]").textContent = error;
    return reading.error || (custom && !text) ? {} : { clock: text };
  }

  wireSettings() {
    const form = this.byName.settings.querySelector("form");
    form.addEventListener("change", () => {
      this.hooks.applySettings({
        boardTheme: form.elements.boardTheme.value,
        pieceTheme: form.elements.pieceTheme.value,
        coordinates: form.elements.coordinates.checked,
        autoQueen: form.elements.autoQueen.checked,
        premoves: form.elements.premoves.checked,
        book: form.elements.book.checked,
        analysis: form.elements.analysis.checked,
        sound: form.elements.sound.checked,
        ...this.clockChoice(form),
      });
    });
  }
}
