// Ctrl/Cmd+Enter on a challenge page (frontend/src/keys.js): the page's Run, except where the key means something else.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isModEnter, runsTheCode } from "../../frontend/src/keys.js";

// A keydown whose target is an element matching `inside` (a selector list) and nothing else.
const keydown = (keys, inside = []) => ({
  key: "Enter",
  ctrlKey: false,
  metaKey: false,
  ...keys,
  target: { closest: (selector) => (selector.split(", ").some((s) => inside.includes(s)) ? {} : null) },
});

test("Ctrl+Enter and Cmd+Enter, not Enter alone nor another key", () => {
  assert.equal(isModEnter(keydown({ ctrlKey: true })), true);
  assert.equal(isModEnter(keydown({ metaKey: true })), true);
  assert.equal(isModEnter(keydown({})), false);
  assert.equal(isModEnter(keydown({ key: "a", ctrlKey: true })), false);
});

test("the page runs the code from a button or the page itself, never from a text field or a link", () => {
  assert.equal(runsTheCode(keydown({ ctrlKey: true })), true);
  assert.equal(runsTheCode({ ...keydown({ metaKey: true }), target: {} }), true); // the document itself
  for (const field of ["textarea", "input", "select", "[contenteditable]", "a[href]"]) {
    assert.equal(runsTheCode(keydown({ ctrlKey: true }, [field])), false, field);
  }
  assert.equal(runsTheCode(keydown({})), false);
});
