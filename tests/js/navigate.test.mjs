// The navigation's decisions (frontend/src/navigate.js): which click it takes over, what a popstate asks for, and
// which build a page's script belongs to. The swap itself is walked in Chromium (tests/browser/test_navigation.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildOf, courseLink, popTarget } from "../../frontend/src/navigate.js";

const ROOT = "https://course.example/loopcraft/";
const HERE = `${ROOT}build-an-agent/parse-action-contract/`;
const NEXT = `${ROOT}build-an-agent/dispatch-registry/`;
const plain = { button: 0, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, defaultPrevented: false, target: null, download: null };
const click = (href, extra = {}) => courseLink({ ...plain, href, ...extra }, HERE, ROOT);

test("a plain left click on another page of the course is taken over, relative or absolute", () => {
  assert.equal(click(NEXT), NEXT);
  assert.equal(click("../dispatch-registry/"), NEXT);
  assert.equal(click("../../index.html#track-build-an-agent"), `${ROOT}index.html#track-build-an-agent`);
});

test("on the index, whose site root is the empty address, a course page's link is taken over", () => {
  const index = `${ROOT}index.html#track-build-an-agent`;
  assert.equal(courseLink({ ...plain, href: "build-an-agent/dispatch-registry/" }, index, ""), NEXT);
  assert.equal(courseLink({ ...plain, href: "../outside/index.html" }, index, ""), null);
  assert.equal(courseLink({ ...plain, href: "../../index.html" }, HERE, "../../"), `${ROOT}index.html`);
});

test("a click with a modifier key, another button, a target or a download is the browser's", () => {
  for (const key of ["altKey", "ctrlKey", "metaKey", "shiftKey"]) assert.equal(click(NEXT, { [key]: true }), null, key);
  assert.equal(click(NEXT, { button: 1 }), null);
  assert.equal(click(NEXT, { target: "_blank" }), null);
  assert.equal(click(NEXT, { target: "_self" }), NEXT);
  assert.equal(click(NEXT, { download: "" }), null);
  assert.equal(click(NEXT, { defaultPrevented: true }), null);
});

test("a link out of the course, to a file, or to a place in this page is the browser's", () => {
  assert.equal(click("https://other.example/loopcraft/index.html"), null);
  assert.equal(click("https://course.example/elsewhere/index.html"), null);
  assert.equal(click(`${ROOT}assets/style.css`), null);
  assert.equal(click(`${ROOT}py/grader/__init__.py`), null);
  assert.equal(click("#results"), null);
  assert.equal(click(`${HERE}index.html#case-2`), null);
  assert.equal(click("mailto:teacher@example.org"), null);
});

test("back or forward to another page is a swap that puts its scroll back; to a fragment's entry it is not", () => {
  assert.deepEqual(popTarget({ scroll: 420 }, NEXT, HERE), { to: HERE, scroll: 420 });
  assert.deepEqual(popTarget(null, NEXT, HERE), { to: HERE, scroll: 0 }); // an entry made before the navigation's
  assert.equal(popTarget(null, HERE, `${HERE}#case-2`), null);
  assert.equal(popTarget({ scroll: 10 }, `${HERE}#case-2`, `${HERE}index.html`), null);
});

test("a page's build is its script's ?v=, relative or absolute", () => {
  assert.equal(buildOf("../../assets/app.js?v=abc123"), "abc123");
  assert.equal(buildOf(`${ROOT}assets/lesson.js?v=abc123`), "abc123");
  assert.equal(buildOf("../../assets/app.js"), null);
});
