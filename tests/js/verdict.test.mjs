// The page's one reading of a verdict (frontend/src/verdict.js): what passed, and the counts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { passed, RESULT_VERSION, runResult, tally } from "../../frontend/src/verdict.js";

const tests = ["pass", "fail", "pass", "timeout", "error"].map((status, i) => ({ name: `c${i}`, status }));

test("a verdict passes on status pass only, a case's or a run's", () => {
  assert.deepEqual(tests.map(passed), [true, false, true, false, false]);
  assert.equal(passed(runResult("pass", null, [])), true);
  assert.equal(passed(runResult("fail", "The run was stopped: 2 not run.", [])), false);
});

test("the counts of a whole run, and of one that ended with cases not run", () => {
  const result = runResult("fail", null, tests);
  assert.deepEqual(tally(result), { passed: 2, ran: 5, total: 5, notRun: 0, failing: [1, 3, 4] });
  assert.deepEqual(tally(result, 8), { passed: 2, ran: 5, total: 8, notRun: 3, failing: [1, 3, 4] });
});

test("a results document in the CLI's shape, its version written once", () => {
  assert.deepEqual(runResult("error", "SyntaxError: x", []),
    { version: RESULT_VERSION, status: "error", message: "SyntaxError: x", tests: [] });
  assert.equal(RESULT_VERSION, 3);
});

test("the page's public verdict shows a hidden case's status and message, none of its values", async () => {
  const { publicVerdict, ValueText } = await import("../../frontend/src/verdict.js");
  const hidden = { name: "h", status: "fail", message: "Hidden case: ...", hidden: true, actual: new ValueText("[1]"), actual_shown: "[1]" };
  const visible = { name: "v", status: "pass", message: "", hidden: false, expected: new ValueText("2"), actual: new ValueText("2") };
  const { tests } = publicVerdict(runResult("fail", null, [hidden, visible]));
  assert.deepEqual(tests, [{ name: "h", status: "fail", message: "Hidden case: ...", hidden: true }, { ...visible, expected: 2, actual: 2 }]);
});
