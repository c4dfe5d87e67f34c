// Game and settings kept in localStorage, so a reload restores them. A write that fails (storage full or disabled)
// says why, and the element tells the person once.
// Each player keeps its own pair of keys, named by its `persist` attribute ("" is the page's one default pair).

/**
 * The storage key of one kind of record for a player.
 * @param {"settings" | "game"} kind
 * @param {string} name the `persist` attribute's value
 */
export function storageKey(kind, name) {
  return `homeostat.${kind}.v1${name ? `.${name}` : ""}`;
}

/** Reads a JSON value, or null. */
function read(key) {
  try {
    const text = globalThis.localStorage?.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Writes a JSON value; returns why it could not (storage full or disabled), or null. */
function write(key, value) {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
    return null;
  } catch (err) {
    return err?.message || String(err);
  }
}

/** The saved settings object (unchecked), or null. */
export function loadSettings(name = "") {
  return read(storageKey("settings", name));
}

/** Saves the settings object; returns why it could not, or null. */
export function saveSettings(name, settings) {
  return write(storageKey("settings", name), settings);
}

/**
 * @typedef {object} SavedGame
 * @property {string} startFen
 * @property {string[]} moves  UCI moves from the start position
 * @property {{result: string, reason: string, loser?: string} | null} ending  a resignation or agreed draw
 */

/** The saved game (unchecked), or null. */
export function loadGame(name = "") {
  return read(storageKey("game", name));
}

/** Saves the game; returns why it could not, or null. */
export function saveGame(name, game) {
  return write(storageKey("game", name), game);
}
