// What an import does, decided before anything is written (frontend/src/transfer.js's planImport), and
// which files it refuses (readProgressFile).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { applyImport, exportProgress, planImport, readProgressFile } from "../../frontend/src/transfer.js";
import { COPY_FROM, copies, mergeUnlockKeys, saveCopy } from "../../frontend/src/storage.js";

const code = (slug) => `loopcraft:code:t/${slug}`;

test("keys only the file has are added, equal ones are left alone", () => {
  const plan = planImport({ [code("a")]: "x", [code("b")]: "same", "loopcraft:lesson:t/intro": "{}" }, { [code("b")]: "same" });
  assert.deepEqual(plan, { writes: { [code("a")]: "x", "loopcraft:lesson:t/intro": "{}" }, conflicts: [] });
});

test("solved marks keep the earlier date and hint counts the larger, without asking", () => {
  const plan = planImport(
    { "loopcraft:solved:t/a": "2026-01-02T00:00:00Z", "loopcraft:hints:t/a": "1" },
    { "loopcraft:solved:t/a": "2026-03-04T00:00:00Z", "loopcraft:hints:t/a": "3" });
  // This browser's hint count is already the larger: nothing to write for it.
  assert.deepEqual(plan.writes, { "loopcraft:solved:t/a": "2026-01-02T00:00:00Z" });
  assert.deepEqual(plan.conflicts, []);
});

test("the keys to a reference solution travel with its solved mark: both sides' kept, this browser's first", () => {
  const [a, b, c] = ["a", "b", "c"].map((ch) => ch.repeat(64));
  assert.deepEqual(planImport({ "loopcraft:unlock:t/a": a, "loopcraft:solved:t/a": "2026-01-02T00:00:00Z" }, {}).writes,
    { "loopcraft:unlock:t/a": a, "loopcraft:solved:t/a": "2026-01-02T00:00:00Z" });
  // Another build's key on each side: both kept, never a conflict to choose.
  const plan = planImport({ "loopcraft:unlock:t/a": `${a} ${c}` }, { "loopcraft:unlock:t/a": b });
  assert.deepEqual(plan, { writes: { "loopcraft:unlock:t/a": `${b} ${a} ${c}` }, conflicts: [] });
  assert.deepEqual(planImport({ "loopcraft:unlock:t/a": a }, { "loopcraft:unlock:t/a": `${a} ${b}` }).writes, {});
  assert.equal(mergeUnlockKeys("1 2 3", "4 5"), "4 5 1 2");
  assert.equal(mergeUnlockKeys("", "4"), "4");
});

test("a lesson's complete mark keeps the earlier date and its right answers are both sides'", () => {
  const plan = planImport(
    { "loopcraft:complete:t/l": "2026-01-02T00:00:00Z", "loopcraft:answers:t/l": '{"1": [2], "2": [0]}' },
    { "loopcraft:complete:t/l": "2026-03-04T00:00:00Z", "loopcraft:answers:t/l": '{"2": [1]}' });
  assert.deepEqual(plan, { writes: { "loopcraft:complete:t/l": "2026-01-02T00:00:00Z",
    "loopcraft:answers:t/l": JSON.stringify({ 1: [2], 2: [1] }) }, conflicts: [] });
  // A file's damaged answers take nothing from this browser's.
  assert.deepEqual(planImport({ "loopcraft:answers:t/l": "[" }, { "loopcraft:answers:t/l": '{"2": [1]}' }).writes, {});
});

// A small localStorage for applyImport (storage.js reads and writes through it).
function withStorage(store, body) {
  globalThis.localStorage = {
    store: { ...store },
    get length() { return Object.keys(this.store).length; },
    key(i) { return Object.keys(this.store)[i]; },
    getItem(key) { return this.store[key] ?? null; },
    setItem(key, value) { this.store[key] = String(value); },
    removeItem(key) { delete this.store[key]; },
  };
  try {
    return body(globalThis.localStorage.store);
  } finally {
    delete globalThis.localStorage;
  }
}

// Issue 39: one conflicting challenge, solved only in the file; "Use the file's" left it "Started".
test("a challenge solved in either browser stays solved whichever code the learner keeps", () => {
  const solved = "loopcraft:solved:t/a";
  const mine = { [code("a")]: "mine", "loopcraft:hints:t/a": "1" };
  const file = { [code("a")]: "theirs", [solved]: "2026-01-02T00:00:00Z", "loopcraft:hints:t/a": "2", [code("b")]: "b" };
  const now = new Date("2026-05-06T00:00:00Z");
  for (const choice of ["incoming", "local"]) {
    const plan = planImport(file, mine);
    assert.deepEqual(plan.conflicts, [{ id: "t/a", local: { code: "mine" }, incoming: { code: "theirs" } }]);
    const after = withStorage(mine, (store) => (applyImport(plan, { "t/a": choice }, now), store));
    assert.equal(after[solved], "2026-01-02T00:00:00Z", choice);
    assert.equal(after["loopcraft:hints:t/a"], "2", choice);
    assert.equal(after[code("b")], "b", choice);
    assert.equal(after[code("a")], choice === "incoming" ? "theirs" : "mine");
    // Kept with where it was: this browser's code when the file's was chosen, the file's when this browser's was.
    const from = choice === "incoming" ? "browser" : "file";
    assert.equal(after[`loopcraft:copy:t/a:${now.toISOString()}:${from}`], choice === "incoming" ? "mine" : "theirs");
  }
  // Solved only here: the file's code, chosen, does not take the mark away.
  const plan = planImport({ [code("a")]: "theirs" }, { [code("a")]: "mine", [solved]: "2026-03-04T00:00:00Z" });
  const after = withStorage({ [code("a")]: "mine", [solved]: "2026-03-04T00:00:00Z" },
    (store) => (applyImport(plan, { "t/a": "incoming" }, now), store));
  assert.equal(after[solved], "2026-03-04T00:00:00Z");
  assert.equal(after[code("a")], "theirs");
});

test("importing the same file again keeps the code not chosen once", () => {
  const mine = { [code("a")]: "mine" };
  const file = { [code("a")]: "theirs" };
  const after = withStorage(mine, (store) => {
    for (const day of ["2026-05-06", "2026-05-07"]) applyImport(planImport(file, store), { "t/a": "local" }, new Date(day));
    return store;
  });
  assert.deepEqual(Object.entries(after).filter(([key]) => key.startsWith("loopcraft:copy:")).map(([, v]) => v), ["theirs"]);
});

test("the versions kept after an import conflict say which was the file's and which this browser's", () => {
  const now = new Date("2026-05-06T00:00:00Z");
  const listed = withStorage({ [code("a")]: "mine", [code("b")]: "mine too", "loopcraft:copy:t/a:2025-01-01T00:00:00.000Z": "old" }, () => {
    const plan = planImport({ [code("a")]: "theirs", [code("b")]: "theirs too" }, { [code("a")]: "mine", [code("b")]: "mine too" });
    applyImport(plan, { "t/a": "local", "t/b": "incoming" }, now);
    return [copies("t", "a"), copies("t", "b")];
  });
  assert.deepEqual(listed[0].map(({ from, text }) => [from, text]), [["file", "theirs"], [null, "old"]]); // a copy from before: unknown
  assert.deepEqual(listed[1].map(({ from, text, date }) => [from, text, date]), [["browser", "mine too", now.toISOString()]]);
  assert.match(COPY_FROM.file, /imported file/);
  assert.match(COPY_FROM.browser, /this browser/);
  assert.throws(() => withStorage({}, () => saveCopy("t/a", "x", "elsewhere")), /not a copy's origin/);
});

test("a key named like an object's own property is no merge rule", () => {
  const plan = planImport({ "loopcraft:constructor:t/a": "x" }, { "loopcraft:constructor:t/a": "y" });
  assert.deepEqual(plan, { writes: {}, conflicts: [{ id: "t/a", local: { constructor: "y" }, incoming: { constructor: "x" } }] });
});

test("different code makes its challenge a choice, with every entry of that challenge in it", () => {
  const plan = planImport(
    { [code("a")]: "theirs", "loopcraft:scenario:t/a": "{}", "loopcraft:base:t/a": "1" },
    { [code("a")]: "mine", "loopcraft:base:t/a": "2" });
  assert.deepEqual(plan.writes, {});
  assert.deepEqual(plan.conflicts, [{ id: "t/a",
    local: { code: "mine", base: "2" }, incoming: { code: "theirs", scenario: "{}", base: "1" } }]);
});

test("a different site version alone is no reason to ask, and preferences stay this browser's", () => {
  const plan = planImport({ "loopcraft:base:t/a": "1", "loopcraft:theme": "dark" },
    { "loopcraft:base:t/a": "2", "loopcraft:theme": "light" });
  assert.deepEqual(plan, { writes: {}, conflicts: [] });
});

test("an export reads back as the same entries", () => {
  globalThis.localStorage = {
    store: { [code("a")]: "print('ü')\n", other: "not ours" },
    get length() { return Object.keys(this.store).length; },
    key(i) { return Object.keys(this.store)[i]; },
    getItem(key) { return this.store[key] ?? null; },
  };
  try {
    assert.deepEqual(readProgressFile(exportProgress()), { [code("a")]: "print('ü')\n" });
  } finally {
    delete globalThis.localStorage;
  }
});

test("files that are not progress files are refused with a reason", () => {
  assert.throws(() => readProgressFile("{"), /not JSON/);
  assert.throws(() => readProgressFile('{"format": "x", "version": 1, "entries": {}}'), /"format" should be "loopcraft-progress"/);
  assert.throws(() => readProgressFile('{"format": "loopcraft-progress", "version": 2, "entries": {}}'), /reads version 1/);
  assert.throws(() => readProgressFile('{"format": "loopcraft-progress", "version": 1, "entries": {"loopcraft:a": 1}}'), /damaged/);
  assert.throws(() => readProgressFile('{"format": "loopcraft-progress", "version": 1, "entries": []}'), /damaged/);
});

// The grader reads the same files by the same rules (tests/unit/test_class_intake.py checks it against these lines too).
test("the site accepts exactly the progress files the grader accepts", () => {
  const { files } = JSON.parse(readFileSync(new URL("../golden/progress_files.json", import.meta.url), "utf8"));
  for (const file of files) {
    let text = file.text;
    if (file.nested !== undefined) text = "[".repeat(file.nested) + "]".repeat(file.nested);
    if (file.code_chars !== undefined) {
      text = JSON.stringify({ format: "loopcraft-progress", version: 1, entries: { "loopcraft:code:t/s": "x".repeat(file.code_chars) } });
    }
    let accepted = true;
    try {
      readProgressFile(text);
    } catch {
      accepted = false;
    }
    assert.equal(accepted, file.accepted, file.name);
  }
});
