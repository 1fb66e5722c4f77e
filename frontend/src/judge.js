// Verdicts in the page: the same rules as grader/judge.py (tests/golden/judge_vectors.json keeps
// them in step). The worker that ran the learner's code only hands back canonical JSON; comparing
// happens here, out of its reach.

import { timeoutMessage } from "./outcomes.js";
import { byCodePoint, entriesOf, isDict, parsePy, PyFloat, typePhrase } from "./pyvalue.js";
import { runResult, tally } from "./verdict.js";

// The page's modules read the timeout text and the limit's spelling from here.
export { formatSeconds, timeoutMessage } from "./outcomes.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const HIDDEN_FAIL = "Hidden case: your result differs from the expected one.";
// A case that calls the entry twice (`call_twice`), as grader/judge.py says it.
export const AGAIN_FAIL = "Called a second time with the same arguments, it returned something else (shown as your result): ";
export const HIDDEN_AGAIN_FAIL = "Hidden case: called a second time with the same arguments, your result differs from the first.";
export const NOT_CALLED_TWICE = "This case calls the function twice, but the grader called it once: it has no verdict.";

function join(path, key) {
  if (typeof key === "number") return `${path}[${key}]`;
  if (IDENTIFIER.test(key)) return path ? `${path}.${key}` : key;
  return `${path}['${key}']`;
}

const sameScalar = (a, b) => (a instanceof PyFloat && b instanceof PyFloat ? a.value === b.value : a === b);

/** Paths where `actual` differs from `expected`, both Python-typed (parsePy), labelled as grader/judge.py does. */
export function differences(expected, actual, path = "") {
  if (isDict(expected) && isDict(actual)) {
    const mine = new Map(entriesOf(expected));
    const theirs = new Map(entriesOf(actual));
    const keys = [...new Set([...mine.keys(), ...theirs.keys()])].sort(byCodePoint);
    return keys.flatMap((key) => {
      const where = join(path, key);
      if (!theirs.has(key)) return [`${where} (missing)`];
      if (!mine.has(key)) return [`${where} (unexpected)`];
      return differences(mine.get(key), theirs.get(key), where);
    });
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    return expected.flatMap((item, i) => differences(item, actual[i], join(path, i)));
  }
  const container = isDict(expected) || Array.isArray(expected);
  const same = typePhrase(expected) === typePhrase(actual) && !container && sameScalar(expected, actual);
  return same ? [] : [path];
}

export function failMessage(expected, actual) {
  if (typePhrase(expected) !== typePhrase(actual)) return `Expected ${typePhrase(expected)}, got ${typePhrase(actual)}.`;
  const paths = differences(expected, actual);
  if (paths.length === 1 && paths[0] === "" && Array.isArray(expected)) {
    return `Expected a list of ${expected.length} items, got ${actual.length}.`;
  }
  if (paths.length && !(paths.length === 1 && paths[0] === "")) return `Differs from expected at: ${paths.join(", ")}.`;
  return "Returned a different value.";
}


export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// `publicCase`: {name, hidden, expected_json} for a visible case, {name, hidden, digest, salt} for a hidden one, and
// `call_twice` for a case that calls the entry twice (the outcome's `again` is then the second call's value).
// The result is the CLI's --json shape: `expected` and `actual` as plain JSON data.
export async function judgeCase(publicCase, outcome, timeLimit) {
  const hidden = Boolean(publicCase.hidden);
  const result = { name: publicCase.name, status: "pass", message: "", output: outcome.output ?? "", hidden, trace: outcome.trace ?? [] };
  if (!hidden) {
    result.expected = JSON.parse(publicCase.expected_json);
    result.actual = null;
  }
  const again = outcome.kind === "value" ? (outcome.again ?? null) : null;
  if (outcome.kind === "timeout") {
    Object.assign(result, { status: "timeout", message: timeoutMessage(timeLimit) });
  } else if (outcome.kind === "error") {
    Object.assign(result, { status: "error", message: outcome.error });
  } else if (publicCase.call_twice && again === null) {
    Object.assign(result, { status: "error", message: NOT_CALLED_TWICE });
  } else if (hidden) {
    if ((await sha256Hex(publicCase.salt + outcome.value)) !== publicCase.digest) {
      Object.assign(result, { status: "fail", message: HIDDEN_FAIL });
    }
  } else {
    result.actual = JSON.parse(outcome.value);
    // Both sides are canonical JSON written by grader/canonical.py, so equal values are equal strings.
    if (outcome.value !== publicCase.expected_json) {
      const message = failMessage(parsePy(publicCase.expected_json), parsePy(outcome.value));
      Object.assign(result, { status: "fail", message });
    }
  }
  if (result.status === "pass" && again !== null && again !== outcome.value) {
    // Shown as a failed case is, with the second call's value as the actual one (the first's is the expected).
    result.status = "fail";
    if (hidden) {
      result.message = HIDDEN_AGAIN_FAIL;
    } else {
      result.actual = JSON.parse(again);
      result.message = AGAIN_FAIL + failMessage(parsePy(outcome.value), parsePy(again));
    }
  }
  return result;
}

// Why a run ended before its last case, and what its verdict says of it: a run stopped by the learner, or at its
// first case that ran out of time (the page's rule: a loop then costs one time limit, not one a case).
const EARLY_END = {
  stopped: (notRun) => `The run was stopped: ${notRun} not run.`,
  timeout: (notRun) => `The run ended at a case that ran out of time: ${notRun} not run.`,
};

/**
 * The verdict of a run: `tests`, the verdicts of the cases that ran, in order, and their `outcomes`; `total`, the
 * cases the run had; `ended`, why it ended before the rest ran ("stopped" or "timeout"). grader/judge.py's
 * summarize, rule for rule.
 */
export function summarize(tests, outcomes, { total = tests.length, ended = null } = {}) {
  // Never a private case's error as the run's message (grader/judge.py says why; the page has no private case).
  const loadError = outcomes.find((o, i) => o.kind === "error" && o.phase === "load" && !tests[i].private);
  if (loadError) return runResult("error", loadError.error, tests);
  const { notRun, failing } = tally({ tests }, total);
  if (notRun > 0) {
    // Not a pass, whatever the cases that ran say: some were never checked.
    if (!Object.hasOwn(EARLY_END, ended)) throw new Error(`${notRun} of ${total} cases not run, and no reason why (ended: ${ended})`);
    return runResult("fail", EARLY_END[ended](notRun), tests);
  }
  return runResult(failing.length ? "fail" : "pass", null, tests);
}
