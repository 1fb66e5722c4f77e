// The reference solution's unlock key (frontend/src/solution.js), made of every published case's expectation text,
// as loopcraft/site/render.py solution_key makes it: the texts and the secret below are what Python wrote for these cases
// (loopcraft/course/cases.py expectation_text, render._encrypt), so page and build are held to agree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { expectationText } from "../../frontend/src/judge.js";
import { unlockSolution } from "../../frontend/src/solution.js";

const VALUE = { expected: '{"$dict":[["\\u00e9",{"$set":[1,2]}],[3,null]]}', expected_shown: "{'é': {1, 2}, 3: None}" };
const RAISES = { raises: { type: "ValueError", message: "square must be between 1 and 64" } };
const HIDDEN_STDOUT = { salt: "salt", digest: "7de2a04fd6d6d9381f4a7015211ab040418e4d0b4e24e9d894c9e2cc11ceca8c", checks: ["stdout"] };
const HIDDEN_RAISES = { salt: "salt", digest: "6941adbd2d25ccfb8d0ef737caf07fce43c946f83652dfceab1d645f833938d1", checks: ["raises_type"] };
const raised = (type, mro, message = null) =>
  ({ kind: "error", phase: "call", error: "", output: "", stdout: "", trace: [], exception: { type, mro, message } });

test("a full expectation's text is the build's, for a value and for a raise", async () => {
  assert.equal(await expectationText(VALUE, null), '{"value":{"$dict":[["\\u00e9",{"$set":[1,2]}],[3,null]]}}');
  assert.equal(await expectationText(RAISES, null),
    '{"raises":{"message":"square must be between 1 and 64","type":"ValueError"}}');
});

test("a hidden case's text comes from the outcome that matches its digest, the exception by a name of its mro", async () => {
  const printed = { kind: "value", value: "null", shown: "None", output: "total: 6\n", stdout: "total: 6\n", trace: [] };
  assert.equal(await expectationText(HIDDEN_STDOUT, printed), '{"stdout":"total: 6\\n"}');
  assert.equal(await expectationText(HIDDEN_STDOUT, { ...printed, stdout: "total: 7\n" }), null);
  const mine = raised("Missing", ["KeyError", "LookupError", "Exception", "BaseException"], "'k'");
  assert.equal(await expectationText(HIDDEN_RAISES, mine), '{"raises":{"type":"LookupError"}}');
  assert.equal(await expectationText(HIDDEN_RAISES, raised("ValueError", ["ValueError", "Exception", "BaseException"])), null);
});

test("a run that passes every case unlocks the solution the build encrypted, and another does not", async () => {
  const secret = { salt: "salt", iv: "bcnLOo7Ue8eKbJNW", ciphertext: "kEkWqg2ATqs4FZUjZ3TlkiVQ8hnrARU7GW2I9UzZmGsppFcQw1eGZPmjS/sICiKTeQ==" };
  const cases = [{ expect: VALUE }, { expect: HIDDEN_RAISES }];
  const returned = { kind: "value", value: VALUE.expected, shown: "", output: "", stdout: "", trace: [] };
  const passing = [returned, raised("KeyError", ["KeyError", "LookupError", "Exception", "BaseException"], "'k'")];
  assert.equal((await unlockSolution(secret, cases, passing)).source, "def f():\n    raise KeyError('k')\n");
  await assert.rejects(unlockSolution(secret, cases, [returned, raised("ValueError", ["ValueError", "Exception", "BaseException"])]));
});
