// A run's verdict as the page holds it: the CLI's --json shape (grader/results.py's RunResult.to_dict), made by
// judge.js's summarize. Every module of the page that asks whether a case passed, or how many did, asks here.

// The version of the results document, as grader/results.py writes it.
export const RESULT_VERSION = 3;

export const runResult = (status, message, tests) => ({ version: RESULT_VERSION, status, message, tests });

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
