// Keyboard shortcuts: maps keys to the element's actions, ignoring typing in fields and modified keys.
// They listen on one element, so two players on a page never both react; a page may forward its own keys.

/** Action names by `KeyboardEvent.key`. */
export const SHORTCUTS = {
  f: "flip",
  F: "flip",
  a: "autoplay",
  m: "move-now",
  " ": "move-now",
  "+": "deeper",
  "=": "deeper",
  "-": "shallower",
  "−": "shallower",
  _: "shallower",
  Backspace: "undo",
  r: "redo",
  R: "redo",
  // The history view, as clicking a move in the list: it shows earlier positions and changes nothing.
  ArrowLeft: "prev",
  ArrowRight: "next",
  Home: "first",
  End: "last",
  Escape: "live",
  n: "new",
  h: "hint",
  d: "draw",
  i: "import-export",
  s: "mute",
  "?": "help",
};

/**
 * The action a key press asks for, or null (typing in a field, modified keys, already handled, unknown key).
 * @param {KeyboardEvent} event
 */
export function shortcutAction(event) {
  return ignoredKey(event) ? null : (SHORTCUTS[event.key] ?? null);
}

/**
 * Whether a key press is not for shortcuts: modified, already handled, typed into a field, or no key press at all
 * (a page forwarding its keys may hand over anything; an object with a `key` is read like an event).
 * @param {KeyboardEvent} event
 */
export function ignoredKey(event) {
  if (typeof event?.key !== "string") return true;
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return true;
  const target = typeof event.composedPath === "function" ? event.composedPath()[0] : event.target;
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/**
 * Listens for shortcut keys on one element (keys pressed while focus is inside it); returns a function that stops.
 * @param {EventTarget} target the element whose keys count
 * @param {(event: KeyboardEvent) => boolean} handle runs the key's action; returns whether it was used
 */
export function listenForShortcuts(target, handle) {
  const onKey = (event) => {
    if (handle(event)) event.preventDefault();
  };
  target.addEventListener("keydown", onKey);
  return () => target.removeEventListener("keydown", onKey);
}
