// What an import does, decided before anything is written (frontend/src/transfer.js's planImport), and
// which files it refuses (readProgressFile).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { exportProgress, planImport, readProgressFile } from "../../frontend/src/transfer.js";

const code = (slug) => `loopcraft:code:t/${slug}`;

test("keys only the file has are added, equal ones are left alone", () => {
  const plan = planImport({ [code("a")]: "x", [code("b")]: "same", "loopcraft:lesson:t/intro": "{}" }, { [code("b")]: "same" });
  assert.deepEqual(plan, { writes: { [code("a")]: "x", "loopcraft:lesson:t/intro": "{}" }, conflicts: [] });
});

test("solved marks keep the earlier date and hint counts the larger, without asking", () => {
  const plan = planImport(
    { "loopcraft:solved:t/a": "2026-01-02T00:00:00Z", "loopcraft:hints:t/a": "1" },
    { "loopcraft:solved:t/a": "2026-03-04T00:00:00Z", "loopcraft:hints:t/a": "3" });
  assert.deepEqual(plan.writes, { "loopcraft:solved:t/a": "2026-01-02T00:00:00Z", "loopcraft:hints:t/a": "3" });
  assert.deepEqual(plan.conflicts, []);
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

// The grader reads the same files by the same rules (tests/test_class_intake.py checks it against these lines too).
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
