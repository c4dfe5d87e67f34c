// Game and settings kept in localStorage, so a reload restores them. Failures (private mode, quota) are ignored.

const SETTINGS_KEY = "homeostat.settings.v1";
const GAME_KEY = "homeostat.game.v1";

/** Reads a JSON value, or null. */
function read(key) {
  try {
    const text = globalThis.localStorage?.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Writes a JSON value; ignores storage errors. */
function write(key, value) {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the game simply will not survive a reload.
  }
}

/** The saved settings object, or null. */
export function loadSettings() {
  return read(SETTINGS_KEY);
}

/** Saves the settings object. */
export function saveSettings(settings) {
  write(SETTINGS_KEY, settings);
}

/**
 * @typedef {object} SavedGame
 * @property {string} startFen
 * @property {string[]} moves  UCI moves from the start position
 * @property {{result: string, reason: string, loser?: string} | null} ending  a resignation or agreed draw
 */

/** The saved game, or null. */
export function loadGame() {
  return read(GAME_KEY);
}

/** Saves the game. */
export function saveGame(game) {
  write(GAME_KEY, game);
}
