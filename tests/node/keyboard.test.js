// The shortcut keys' reading of a key press (www/ui/keyboard.js): what a page forwarding its keys may hand over,
// real events or not, is either a shortcut or nothing, never an exception.

import assert from "node:assert/strict";
import { test } from "node:test";

// The module tells typing in a field apart with `instanceof HTMLElement`; Node has no DOM.
globalThis.HTMLElement ??= class HTMLElement {};
const { ignoredKey, shortcutAction } = await import("../../www/ui/keyboard.js");

/** A stand-in for an element that takes typing. */
class Field extends globalThis.HTMLElement {
  tagName = "INPUT";
  isContentEditable = false;
}

test("a key press maps to its action; modified, handled or typed ones to none", () => {
  assert.equal(shortcutAction({ key: "f", composedPath: () => [] }), "flip");
  assert.equal(shortcutAction({ key: "ArrowLeft", target: null }), "prev");
  assert.equal(shortcutAction({ key: "f", ctrlKey: true }), null);
  assert.equal(shortcutAction({ key: "f", defaultPrevented: true }), null);
  assert.equal(shortcutAction({ key: "q" }), null);
  assert.equal(shortcutAction({ key: "f", composedPath: () => [new Field()] }), null);
  assert.equal(shortcutAction({ key: "f", target: new Field() }), null);
});

test("anything that is no key press is ignored, not thrown on", () => {
  for (const odd of [undefined, null, 0, "f", [], {}, { key: 5 }, { key: null }, { composedPath: () => [] }]) {
    assert.equal(ignoredKey(odd), true, JSON.stringify(odd));
    assert.equal(shortcutAction(odd), null, JSON.stringify(odd));
  }
});
