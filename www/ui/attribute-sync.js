// Applies the element's attributes: reads each one (ui/attributes.js) and hands the value to the element's
// settings, layout, board or game controller. A bad value fires one `error` event and changes nothing.

import { parseClock } from "../game/settings.js";
import { readChoice, readLevel, readMemoryUrl, readMillis, readSeconds, readSeed, readSize, readSwitch } from "./attributes.js";

/** Board colours a page may set as CSS custom properties on the element, by board-theme field. */
const COLOR_PROPERTIES = {
  light: "--homeostat-light-square",
  dark: "--homeostat-dark-square",
  lastMove: "--homeostat-last-move",
  premove: "--homeostat-premove",
  selected: "--homeostat-selected",
  target: "--homeostat-target",
  check: "--homeostat-check",
  arrow: "--homeostat-arrow",
  focus: "--homeostat-focus",
};

/** Attributes that shape the layout only; applied on connection, before the rules load. */
export const LAYOUT_ATTRIBUTES = ["size", "show-thinking", "show-moves", "show-controls"];

/** The on/off attributes and the setting or layout flag each sets. */
const SWITCHES = { sound: "sound", coordinates: "coordinates", "show-moves": "showMoves", "show-controls": "showControls", readonly: "readonly" };

/**
 * Applies one attribute; `initial` while starting (settings only). A bad value fires `error` and changes nothing.
 * @param {any} el the player element
 * @param {string} name
 * @param {boolean} initial
 */
export function applyAttribute(el, name, initial) {
  const text = el.getAttribute(name);
  const use = (reading, apply) => (reading.error ? el.fail(reading.error) : apply(reading.value));
  const layout = el.$(".layout");
  if (name in SWITCHES) {
    const fallback = name === "readonly" ? false : name === "sound" || name === "coordinates" ? (initial ? el.settings[name] : true) : true;
    return use(readSwitch(name, text, fallback), (on) => applySwitch(el, name, on, initial));
  }
  switch (name) {
    case "player":
      if (text !== null) use(readChoice(name, text, ["white", "black", "both", "none"]), (v) => (initial ? (el.settings.player = v) : el.setPlayer(v)));
      break;
    case "level":
      if (text !== null) use(readLevel(text), (v) => (initial ? (el.settings.level = v) : el.setLevel(v)));
      break;
    case "orientation":
      if (text !== null) use(readChoice(name, text, ["white", "black"]), (v) => (initial ? (el.settings.orientation = v) : el.setOrientation(v)));
      break;
    case "movetime":
    case "think-min":
    case "think-max":
      readThinkTime(el, initial);
      break;
    case "seed":
      if (text === null) el.controller?.setSeed(null);
      else use(readSeed(text), (v) => el.controller?.setSeed(v));
      break;
    case "memory":
      // Off when absent or empty; a bad address leaves the memory as it was.
      if (!text?.trim()) el.setMemory(null);
      else use(readMemoryUrl(text, document.baseURI), (url) => el.setMemory(url));
      break;
    case "clock":
      // Absent at start: the stored setting stands; removed later: no clock.
      if (text === null) return void (initial || el.applySettings({ clock: "" }, false));
      use(parseClock(text), () => (initial ? (el.settings.clock = text.trim()) : el.applySettings({ clock: text.trim() }, false)));
      break;
    case "theme":
      // Matched without regard to case, here and in the stylesheet (`[theme="dark" i]`).
      if (text !== null) use(readChoice(name, text, ["light", "dark", "auto"]), () => {});
      readColors(el);
      break;
    case "size":
      if (text === null) el.style.removeProperty("--homeostat-size");
      else use(readSize(text), (px) => el.style.setProperty("--homeostat-size", `${px}px`));
      break;
    case "show-thinking":
      if (text === null) layout.dataset.showThinking = "panel";
      else use(readChoice(name, text, ["line", "panel", "off"]), (v) => (layout.dataset.showThinking = v));
      break;
    case "fen":
      // A pgn attribute, when there is one, wins over fen.
      if (!initial && text && !el.getAttribute("pgn")) el.replaceGame(() => new el.rules.Game(text));
      break;
    case "pgn":
      if (!initial && text) el.replaceGame(() => el.rules.Game.load(text), undefined, text);
      else if (!initial && el.getAttribute("fen")) el.replaceGame(() => new el.rules.Game(el.getAttribute("fen")));
      break;
  }
}

/** An on/off attribute's value, applied. */
function applySwitch(el, name, on, initial) {
  const layout = el.$(".layout");
  if (name === "sound" || name === "coordinates") {
    if (initial) el.settings[name] = on;
    else el.applySettings({ [name]: on }, false);
  } else if (name === "readonly") {
    el.readonly = on;
    layout.dataset.readonly = String(on);
    el.$(".viewer").hidden = !on;
    if (!initial) {
      el.controller.setReadonly(on);
      el.screen.refresh(false);
    }
  } else layout.dataset[SWITCHES[name]] = String(on);
}

/** Reads movetime, or think-min / think-max, into the think setting; with none of them, timing is by level. */
export function readThinkTime(el, initial) {
  const movetime = el.getAttribute("movetime");
  const min = el.getAttribute("think-min");
  const max = el.getAttribute("think-max");
  let think = "level";
  if (movetime !== null) {
    const reading = readMillis("movetime", movetime);
    if (reading.error) return el.fail(reading.error);
    think = String(reading.value);
  } else if (min !== null || max !== null) {
    const lo = min === null ? { value: 500 } : readSeconds("think-min", min);
    const hi = max === null ? { value: Math.max(5000, lo.value ?? 0) } : readSeconds("think-max", max);
    if (lo.error || hi.error) return el.fail(lo.error ?? hi.error);
    if (lo.value > hi.value) return el.fail(`think-min (${min} s) is above think-max (${max} s)`);
    el.thinkBounds = { min: lo.value, max: hi.value };
    think = "adaptive";
  } else if (initial) return; // No time attributes at start: the stored or default setting stands.
  el.settings.think = think;
  el.controller?.configure({ think, thinkMinMs: el.thinkBounds.min, thinkMaxMs: el.thinkBounds.max });
}

/** Reads the board colour custom properties set on the element (at start, on `theme`; call after changing them). */
export function readColors(el) {
  if (!el.board) return;
  const style = getComputedStyle(el);
  const colors = {};
  for (const [field, property] of Object.entries(COLOR_PROPERTIES)) {
    const value = style.getPropertyValue(property).trim();
    if (value) colors[field] = value;
  }
  el.board.setAppearance({ colors });
}
