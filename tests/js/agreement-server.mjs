// For tests/test_judge_agreement.py: reads lines [expected_json, actual_json] (canonical JSON) and answers each
// with what the page makes of them: the fail message (judge.js) and the repr of both values (pyvalue.js).
import { createInterface } from "node:readline";
import { failMessage } from "../../frontend/src/judge.js";
import { parsePy, repr } from "../../frontend/src/pyvalue.js";

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const [expectedJson, actualJson] = JSON.parse(line);
  const [expected, actual] = [parsePy(expectedJson), parsePy(actualJson)];
  const answer = { message: failMessage(expected, actual), expected: repr(expected), actual: repr(actual) };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
