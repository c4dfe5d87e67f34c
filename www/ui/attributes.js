// Reads the element's HTML attributes into values; each reader returns {value} or {error} with a clear message.

/** Every attribute the element watches. */
export const ATTRIBUTES = [
  "fen",
  "pgn",
  "orientation",
  "player",
  "level",
  "movetime",
  "think-min",
  "think-max",
  "show-thinking",
  "show-moves",
  "show-controls",
  "sound",
  "theme",
  "coordinates",
  "readonly",
  "size",
  "seed",
  "persist",
  "memory",
  "clock",
];

/** Words an on/off attribute takes, by the value they mean. */
const SWITCH_WORDS = { true: ["", "true", "on", "yes", "1"], false: ["false", "off", "no", "0"] };

/**
 * An on/off attribute: absent → fallback; present without a value, "true", "on", "yes", "1" → true;
 * "false", "off", "no", "0" → false (any case); any other word is an error.
 * @param {string} name attribute name, for the message
 * @param {string | null} text
 * @param {boolean} fallback
 * @returns {{value: boolean} | {error: string}}
 */
export function readSwitch(name, text, fallback) {
  if (text === null) return { value: fallback };
  const word = text.trim().toLowerCase();
  if (SWITCH_WORDS.true.includes(word)) return { value: true };
  if (SWITCH_WORDS.false.includes(word)) return { value: false };
  return { error: `${name}="${text}": use on or off (also true/false, yes/no, 1/0)` };
}

/**
 * A seed for the engine's random choices: a whole number from 0 to 4294967295.
 * @param {string} text
 */
export function readSeed(text) {
  const seed = Number(text.trim());
  return /^\s*\d+\s*$/.test(text) && seed <= 0xffffffff ? { value: seed } : { error: `seed="${text}": a whole number from 0 to 4294967295` };
}

/**
 * One of a few words (case-insensitive).
 * @param {string} name attribute name, for the message
 * @param {string} text
 * @param {string[]} words
 */
export function readChoice(name, text, words) {
  const word = text.trim().toLowerCase();
  return words.includes(word) ? { value: word } : { error: `${name}="${text}": use ${words.join(", ")}` };
}

/**
 * A time: "1500" or "1500ms" are milliseconds, "1.5s" seconds. Returns milliseconds.
 * @param {string} name
 * @param {string} text
 */
export function readMillis(name, text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/i.exec(text);
  if (!match) return { error: `${name}="${text}": write milliseconds (1500) or seconds (1.5s)` };
  const ms = Number(match[1]) * (match[2]?.toLowerCase() === "s" ? 1000 : 1);
  if (ms < 10 || ms > 600_000) return { error: `${name}="${text}": between 10 ms and 600 s` };
  return { value: Math.round(ms) };
}

/**
 * A time in seconds ("2", "2.5", or "2s"); returns milliseconds.
 * @param {string} name
 * @param {string} text
 */
export function readSeconds(name, text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*s?\s*$/i.exec(text);
  const seconds = match ? Number(match[1]) : NaN;
  if (!(seconds >= 0.05 && seconds <= 600)) return { error: `${name}="${text}": seconds between 0.05 and 600` };
  return { value: Math.round(seconds * 1000) };
}

/**
 * The search level, 1 to 8.
 * @param {string} text
 */
export function readLevel(text) {
  const level = Number(text);
  return Number.isInteger(level) && level >= 1 && level <= 8 ? { value: level } : { error: `level="${text}": a whole number from 1 to 8` };
}

/**
 * The shared memory's base URL (an http or https folder, resolved against `base`), always ending in "/".
 * @param {string} text
 * @param {string} base the page's URL
 */
export function readMemoryUrl(text, base) {
  const problem = (why) => ({ error: `memory="${text}": ${why}` });
  let url;
  try {
    url = new URL(text.trim(), base);
  } catch {
    return problem("not a URL; write the memory's address, such as https://example.org/memory/");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return problem("use an http or https address");
  if (url.username || url.password) return problem("no user name or password in the address (requests carry no credentials)");
  if (url.search || url.hash) return problem("the memory's folder, without ? or # parts");
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol === "http:" && new URL(base).protocol === "https:" && !loopback) {
    return problem("an https page cannot reach an http memory (mixed content); use https");
  }
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return { value: url.href };
}

/**
 * The board's side in CSS pixels ("360" or "360px").
 * @param {string} text
 */
export function readSize(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i.exec(text);
  const px = match ? Number(match[1]) : NaN;
  return px >= 120 && px <= 2000 ? { value: Math.round(px) } : { error: `size="${text}": a board side in pixels from 120 to 2000` };
}
