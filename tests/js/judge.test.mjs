// The one judge (frontend/src/judge.js) on the vectors of tests/golden/judge_vectors.json: each case in the contract's
// shapes (docs/architecture.md, "Verdicts"), every kind and comparison rule, hidden and private cases, call_twice,
// tolerance, exceptions and printed text, with outcomes of every shape and time limits of every spelling; and whole
// runs (summarize), those that ended before their last case included. Each vector's `result` is the verdict as the
// results document writes it. After an intended change: LOOPCRAFT_REGEN_GOLDEN=1 node --test tests/js/judge.test.mjs
// rewrites them, and the diff is reviewed.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { diff, differences, failMessage, judgeCase, judgeRun, printedMessage, readable, summarize } from "../../frontend/src/judge.js";
import { valueOf } from "../../frontend/src/pyvalue.js";
import { plainVerdict, RESULT_VERSION } from "../../frontend/src/verdict.js";

const file = new URL("../golden/judge_vectors.json", import.meta.url);
const vectors = JSON.parse(readFileSync(file, "utf8"));
const regen = process.env.LOOPCRAFT_REGEN_GOLDEN === "1";
const plainCase = (result) => plainVerdict({ tests: [result] }).tests[0];

for (const vector of vectors.cases) {
  test(`a case: ${vector.title}`, async () => {
    const result = plainCase(await judgeCase(vector.case, vector.outcome, vector.time_limit));
    if (regen) vector.result = result;
    assert.deepEqual(result, vector.result);
  });
}

for (const vector of vectors.runs) {
  test(`a run: ${vector.title}`, async () => {
    const result = plainVerdict(await judgeRun(vector.cases, vector.outcomes, { timeLimit: vector.time_limit, ended: vector.ended }));
    if (regen) vector.result = result;
    assert.deepEqual(result, vector.result);
  });
}

if (regen) {
  test.after(() => writeFileSync(file, `${JSON.stringify(vectors, null, 1)}\n`));
}

for (const ended of [null, "finished", "toString"]) {
  test(`a run short of cases must say why it ended (ended: ${ended})`, () => {
    // Cases left unrun for no known reason are a runner's bug, never a verdict.
    const tests = [{ name: "a", status: "pass", private: false }];
    assert.throws(() => summarize(tests, [{ kind: "value" }], { total: 2, ended }), /1 of 2 cases not run/);
  });
}

test("an int past 2**53 comes out of the verdict as it went in", async () => {
  const big = "123456789012345678901234567890";
  const testCase = { name: "a", hidden: false, expect: { expected: big, expected_shown: big } };
  const verdict = await judgeRun([testCase], [{ kind: "value", value: big, shown: big, output: "", trace: [] }], { timeLimit: 1 });
  const { verdictText } = await import("../../frontend/src/verdict.js");
  assert.match(verdictText(verdict), new RegExp(`"expected":${big},`));
  assert.equal(verdict.version, RESULT_VERSION);
});

test("a learner's string that looks like the writer's marker stays a string", async () => {
  const sly = JSON.stringify("\u0000x:0");
  const testCase = { name: "a", hidden: false, expect: { expected: "1", expected_shown: "1" } };
  const verdict = await judgeRun([testCase], [{ kind: "value", value: sly, shown: "'\\x00x:0'", output: "", trace: [] }], { timeLimit: 1 });
  assert.equal(plainVerdict(verdict).tests[0].actual, "\u0000x:0");
});

test("difference paths are written as Python subscripts, over tagged values too", () => {
  const at = (e, a) => differences(diff(valueOf(e), valueOf(a)));
  assert.deepEqual(at('{"counts":{"the":2}}', '{"counts":{"the":1}}'), ["counts['the']"]);
  assert.deepEqual(at('{"x":[1,2,3]}', '{"x":[1,2,4]}'), ["x[2]"]);
  assert.deepEqual(at('[{"a b":1}]', '[{"a b":2}]'), ["[0]['a b']"]);
  assert.deepEqual(at('{"$dict":[[[1,2],{"$set":[1]}]]}', '{"$dict":[[[1,2],{"$set":[2]}]]}'), ["[(1, 2)] (missing 1; unexpected 2)"]);
  assert.deepEqual(at('{"$dict":[[1,"a"]]}', '{"1":"a"}'), ["[1] (missing)", "['1'] (unexpected)"]);
});

test("a message says where two printed texts first differ", () => {
  assert.equal(printedMessage("ab\ncd\n", "ab\nce\n"), "Printed text differs from expected at line 2, column 2: expected 'd\\n', got 'e\\n'.");
  assert.equal(failMessage(valueOf("1"), valueOf("true")), "Expected an int, got a bool.");
});

test("an outcome the judge cannot read is an error for that case only", () => {
  const ok = { kind: "value", value: "[1]", output: "", trace: [] };
  assert.equal(readable(ok), ok);
  for (const bad of [
    { kind: "value", value: "[" + "1,".repeat(3) + "", output: "" }, // not a value text
    { kind: "value", value: 7, output: "" },
    { kind: "value", value: "1", again: "{", output: "" },
    { kind: "error", output: "" },
    { kind: "forged" },
    "not an outcome",
    null,
  ]) {
    const outcome = readable(bad);
    assert.equal(outcome.kind, "error");
    assert.match(outcome.error, /^This case could not be graded/);
  }
});

test("a value made without its shown text is shown as the page writes it, cut as Python cuts it", async () => {
  const long = JSON.stringify([..."x".repeat(5000)]);
  const testCase = { name: "a", hidden: false, expect: { expected: "1", expected_shown: "1" } };
  const result = await judgeCase(testCase, { kind: "value", value: long, output: "", trace: [] }, 1);
  assert.equal(result.actual_shown.length, 2000);
  assert.ok(result.actual_shown.startsWith("['x', 'x'") && result.actual_shown.endsWith("..."));
});
