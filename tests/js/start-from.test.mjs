// "Start from my code for challenge N" (frontend/src/start-from.js): what a press does to the editor, and what the
// page says. The learner's own work is never replaced unasked, and is kept when it is replaced.
import assert from "node:assert/strict";
import { test } from "node:test";

const store = new Map();
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
  removeItem: (key) => store.delete(key),
};
const { startFrom, startFromNote, startFromQuestion } = await import("../../frontend/src/start-from.js");
const { savedCode } = await import("../../frontend/src/storage.js");

const STARTER = "def run_agent(task, script):\n    pass\n";
const EARLIER = "def run_agent(task, script):\n    return 'mine'\n";
const from = { slug: "stage-4-loop", number: 5, title: "Write the Stage-4 Loop" };

test("the starter in the editor is replaced at once: nothing of the learner's is in it", () => {
  assert.deepEqual(startFrom({ text: STARTER, starter: STARTER, earlier: EARLIER }), { action: "replace", code: EARLIER });
});

test("work of the learner's own is replaced only once confirmed, and is kept", () => {
  const own = `${STARTER}# my own work\n`;
  assert.deepEqual(startFrom({ text: own, starter: STARTER, earlier: EARLIER }),
    { action: "confirm", code: EARLIER, keep: own });
  // Even a change of whitespace is work of the learner's own: only the starter, exactly, is not.
  assert.equal(startFrom({ text: `${STARTER} `, starter: STARTER, earlier: EARLIER }).action, "confirm");
});

test("nothing changes when the editor holds that code already, or when none is saved any more", () => {
  assert.deepEqual(startFrom({ text: EARLIER, starter: STARTER, earlier: EARLIER }), { action: "same" });
  assert.deepEqual(startFrom({ text: `${STARTER}# mine\n`, starter: STARTER, earlier: null }), { action: "gone" });
});

test("the page says what it did, naming the challenge and the way back", () => {
  const say = (action, options = {}) => startFromNote(action, { from, undoKey: "Ctrl+Z", ...options });
  assert.equal(say("replace"),
    "The editor now holds your code for challenge 5 (Write the Stage-4 Loop). Ctrl+Z brings back the starter code.");
  assert.equal(say("confirm", { kept: true }), "The editor now holds your code for challenge 5 (Write the Stage-4 "
    + "Loop). Your previous code is kept under \"Other versions of your code\"; Ctrl+Z brings your previous code back.");
  // Storage full: the work was not kept as a version, and the page does not claim it was; undo still has it.
  assert.equal(say("confirm", { kept: false }),
    "The editor now holds your code for challenge 5 (Write the Stage-4 Loop). Ctrl+Z brings your previous code back.");
  assert.equal(say("confirm", { confirmed: false }), "Nothing was replaced: the editor keeps your code.");
  assert.equal(say("same"), "The editor already holds your code for challenge 5 (Write the Stage-4 Loop).");
  assert.match(say("gone"), /no code of yours for challenge 5/);
  assert.match(startFromQuestion(from), /^Replace the code in the editor with your code for challenge 5 .*kept/);
});

test("the earlier challenge's code is read from its autosave key", () => {
  store.clear();
  assert.equal(savedCode("build-an-agent", "stage-4-loop"), null);
  store.set("loopcraft:code:build-an-agent/stage-4-loop", EARLIER);
  assert.equal(savedCode("build-an-agent", "stage-4-loop"), EARLIER);
});
