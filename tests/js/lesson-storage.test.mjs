// What the browser keeps for lessons (docs/architecture.md, "What the browser keeps"): the keys, and that
// a damaged entry loses the learner nothing worse than the answers it held.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const store = new Map();
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
  removeItem: (key) => store.delete(key),
};
const { isComplete, isDone, liveKey, markComplete, markSolved, rightAnswers, saveRightAnswers } =
  await import("../../frontend/src/storage.js");

beforeEach(() => store.clear());

test("a lesson marked complete is done; a challenge is done once solved", () => {
  assert.equal(isDone("t", "lesson", "lesson"), false);
  markComplete("t", "lesson");
  assert.ok(store.has("loopcraft:complete:t/lesson"));
  assert.equal(isComplete("t", "lesson"), true);
  assert.equal(isDone("t", "lesson", "lesson"), true);
  assert.equal(isDone("t", "lesson", "challenge"), false);
  markSolved("t", "challenge");
  assert.equal(isDone("t", "challenge", "challenge"), true);
});

test("answers round-trip under their key, and junk reads as no answers", () => {
  saveRightAnswers("t", "s", { 0: [1], 2: [0, 3] });
  assert.equal(store.get("loopcraft:answers:t/s"), '{"0":[1],"2":[0,3]}');
  assert.deepEqual(rightAnswers("t", "s"), { 0: [1], 2: [0, 3] });
  for (const junk of ["not json", "[1,2]", "null", "3"]) {
    store.set("loopcraft:answers:t/s", junk);
    assert.deepEqual(rightAnswers("t", "s"), {});
  }
});

test("each live block has its own key", () => {
  assert.equal(liveKey("build-an-agent", "recite-the-loop", 0), "loopcraft:live:build-an-agent/recite-the-loop/0");
  assert.notEqual(liveKey("t", "s", 0), liveKey("t", "s", 1));
});
