// The page's judge must agree with grader/judge.py on every vector in tests/golden/judge_vectors.json: each case
// (outcomes from the interpreter and from the runners, time limits of every shape) and whole runs (summarize),
// those that ended before their last case included.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { judgeCase, summarize } from "../../frontend/src/judge.js";

const vectors = JSON.parse(readFileSync(new URL("../golden/judge_vectors.json", import.meta.url), "utf8"));

for (const { title, case: publicCase, outcome, time_limit: timeLimit, result } of vectors.cases) {
  test(`judge.js agrees with judge.py: ${title}`, async () => {
    assert.deepEqual(await judgeCase(publicCase, outcome, timeLimit), result);
  });
}

for (const { title, cases, outcomes, time_limit: timeLimit, ended, result } of vectors.runs) {
  test(`summarize agrees with judge.py: ${title}`, async () => {
    const tests = await Promise.all(outcomes.map((o, i) => judgeCase(cases[i], o, timeLimit)));
    assert.deepEqual(summarize(tests, outcomes, { total: cases.length, ended }), result);
  });
}

for (const ended of [null, "finished", "toString"]) {
  test(`a run short of cases must say why it ended (ended: ${ended})`, () => {
    // Cases left unrun for no known reason are a runner's bug, never a verdict.
    const tests = [{ name: "a", status: "pass", private: false }];
    assert.throws(() => summarize(tests, [{ kind: "value" }], { total: 2, ended }), /1 of 2 cases not run/);
  });
}
