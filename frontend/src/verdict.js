// A run's verdict as the page and the Node runner hold it: the results document (grader/results.py's
// RunResult.to_dict shape), made by judge.js. Every module of the page that asks whether a case passed, or how many
// did, asks here.

// The version of the results document, as grader/results.py writes it.
export const RESULT_VERSION = 3;

export const runResult = (status, message, tests) => ({ version: RESULT_VERSION, status, message, tests });

/** A value of the verdict held as its value text (grader/canonical.py), written out as it is: JSON.parse would lose
 * an int past 2**53 on the way to the host. */
export class ValueText {
  constructor(text) {
    this.text = text;
  }
}

/** The results document as JSON text, each ValueText written as its text. */
export function verdictText(verdict) {
  const texts = [];
  // A marker no value of the document can hold: a learner's string cannot guess it.
  const mark = `\u0000${crypto.randomUUID()}:`;
  const json = JSON.stringify(verdict, (_, value) => {
    if (!(value instanceof ValueText)) return value;
    texts.push(value.text);
    return `${mark}${texts.length - 1}`;
  });
  const quoted = JSON.stringify(mark).slice(0, -1);
  return json.replace(new RegExp(`${quoted.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}(\\d+)"`, "g"), (_, i) => texts[Number(i)]);
}

/** The results document as plain JSON data. */
export const plainVerdict = (verdict) => JSON.parse(verdictText(verdict));

// What a hidden case never shows a reader: grader/results.py's SHOWN.
const SHOWN = ["expected", "actual", "expected_shown", "actual_shown", "expected_stdout", "stdout"];

/** The results document as the command line's --json writes it for the learner (grader/results.py to_dict, its
 * hidden cases without values): the page's window.loopcraft.lastResult, for tests and scripts. */
export function publicVerdict(verdict) {
  const plain = plainVerdict(verdict);
  const tests = plain.tests.map((test) => (test.hidden ? Object.fromEntries(Object.entries(test).filter(([key]) => !SHOWN.includes(key))) : test));
  return { ...plain, tests };
}

/** Whether a verdict is a pass: a case's (judge.js judgeCase, a case of a written result) or a whole run's. */
export const passed = (verdict) => verdict.status === "pass";

/**
 * The counts of a run's verdict. `total`: the cases the run had, when it ended before some of them ran.
 * @returns {{passed: number, ran: number, total: number, notRun: number, failing: number[]}} failing: the indexes
 *   of the cases that ran and did not pass.
 */
export function tally(result, total = result.tests.length) {
  const failing = result.tests.flatMap((test, index) => (passed(test) ? [] : [index]));
  const ran = result.tests.length;
  return { passed: ran - failing.length, ran, total, notRun: total - ran, failing };
}
