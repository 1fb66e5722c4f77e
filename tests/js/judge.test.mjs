// The page's judge must agree with grader/judge.py on every vector in tests/golden/judge_vectors.json.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { judgeCase } from "../../frontend/src/judge.js";

const vectors = JSON.parse(readFileSync(new URL("../golden/judge_vectors.json", import.meta.url), "utf8"));

for (const { title, case: publicCase, outcome, time_limit: timeLimit, result } of vectors) {
  test(`judge.js agrees with judge.py: ${title}`, async () => {
    assert.deepEqual(await judgeCase(publicCase, outcome, timeLimit), result);
  });
}
