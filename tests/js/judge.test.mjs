// The page's judge must agree with grader/judge.py on every vector in tests/golden/judge_vectors.json: each case
// (outcomes from the interpreter and from the runners, time limits of every shape) and whole runs (summarize).
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

for (const { title, cases, outcomes, time_limit: timeLimit, result } of vectors.runs) {
  test(`summarize agrees with judge.py: ${title}`, async () => {
    const tests = await Promise.all(cases.map((c, i) => judgeCase(c, outcomes[i], timeLimit)));
    assert.deepEqual(summarize(tests, outcomes), result);
  });
}
