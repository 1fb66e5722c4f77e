// The one judge: every verdict is made here, in the page and in the Node runner's main thread (node-runner.mjs,
// for the command line, `check` and Gradescope), outside the interpreter that ran the learner's code, which only
// hands back outcomes (outcomes.js). Python reads and writes the verdict this makes (grader/results.py
// RunResult.from_dict); tests/js/judge.test.mjs holds its rules to golden vectors.
//
// A case, as the host sends it and the page's data has it: {name, hidden, private, call_twice, run, expect,
// call_shown}; its expectation `expect` in the full form {expected?, expected_shown, raises?, stdout?, tolerance?}
// or, for a hidden case without tolerance, the hidden form {salt, digest, checks} (docs/architecture.md, "Verdicts").

import { errorOutcome, timeoutMessage } from "./outcomes.js";
import { asciiJson, keyRepr, PyDict, PyFloat, PySet, repr, stringRepr, typePhrase, valueOf, valueText } from "./pyvalue.js";
import { nameMistakes, sha256Hex } from "./mistakes.js";
import { runResult, tally, ValueText } from "./verdict.js";

// The page's modules read the timeout text, the limit's spelling and the digest from here.
export { formatSeconds, timeoutMessage } from "./outcomes.js";
export { sha256Hex } from "./mistakes.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const HIDDEN_FAIL = "Hidden case: your result differs from the expected one.";
// A case that calls the entry twice (`call_twice`): the second call returned something else than the first. A hidden
// case says so without a value or a path: the first call returned the expected value, so either would show it.
export const AGAIN_FAIL = "Called a second time with the same arguments, it returned something else (shown as your result): ";
export const HIDDEN_AGAIN_FAIL = "Hidden case: called a second time with the same arguments, your result differs from the first.";
// The case asks for two calls and the outcome holds one: a runner that does not pass `call_twice` on.
export const NOT_CALLED_TWICE = "This case calls the function twice, but the grader called it once: it has no verdict.";
// How much of a text a message quotes where two printed texts first differ.
const QUOTED = 40;
// A value as Python writes it, for display only: the outcome's `shown`, or (an outcome made without one) the page's
// repr of its value text, cut as grader/canonical.py cuts `shown`.
const SHOWN_CHARS = 2_000;
const shownOf = (text, shown) => {
  if (shown !== undefined && shown !== null) return shown;
  const written = repr(valueOf(text));
  return written.length > SHOWN_CHARS ? `${written.slice(0, SHOWN_CHARS - 3)}...` : written;
};

// Where in a value a difference is, as the learner would write it: `counts['the']`, `x[2]`, `[0]['a']`; a str key at
// the top that is a name stands alone (`errors`).
function join(path, key) {
  if (path === "" && typeof key === "string" && IDENTIFIER.test(key)) return key;
  return `${path}[${keyRepr(key)}]`;
}

const isNumber = (v) => typeof v === "bigint" || v instanceof PyFloat;

// Two numbers by value at any size: an int and an int exactly (BigInt), a float with a float as doubles; an int and
// a float are never equal here, since the value text writes an integral float as an int. With `tolerance`, any two
// numbers of which one is a float are equal within it (absolutely).
function sameNumber(expected, actual, tolerance) {
  if (typeof expected === "bigint" && typeof actual === "bigint") return expected === actual;
  if (tolerance !== null) return Math.abs(Number(expected instanceof PyFloat ? expected.value : expected) -
    Number(actual instanceof PyFloat ? actual.value : actual)) <= tolerance;
  return expected instanceof PyFloat && actual instanceof PyFloat && expected.value === actual.value;
}

const sameKind = (a, b) => typePhrase(a) === typePhrase(b) || (isNumber(a) && isNumber(b));

/**
 * Where two values (valueOf's) differ: null when equal, "changed" when they differ as a whole, or {children:
 * Map(key -> node | "missing" | "unexpected"), keys: Map(key -> the key as Python has it)} for dicts (keyed by the
 * key's value text) and same-length lists (by index) whose items differ; {missing: [...], unexpected: [...]} for a
 * set. `tolerance`: the case's, for every float compared (null: exact). pretty.js marks its lines from this walk.
 */
export function diff(expected, actual, tolerance = null) {
  if (!sameKind(expected, actual)) return "changed";
  if (Array.isArray(expected)) {
    if (expected.length !== actual.length) return "changed";
    return collect(expected.map((item, i) => [i, i, diff(item, actual[i], tolerance)]));
  }
  if (expected instanceof PySet) {
    // Items are matched by their value text; within a tolerance, in the text's order, item by item.
    if (tolerance !== null && expected.items.length === actual.items.length &&
      expected.items.every((item, i) => diff(item, actual.items[i], tolerance) === null)) return null;
    const theirs = new Set(actual.items.map(valueText));
    const mine = new Set(expected.items.map(valueText));
    const missing = expected.items.filter((item) => !theirs.has(valueText(item)));
    const unexpected = actual.items.filter((item) => !mine.has(valueText(item)));
    return missing.length || unexpected.length ? { missing, unexpected } : null;
  }
  if (expected instanceof PyDict) {
    const mine = new Map(expected.entries.map(([key, item, text]) => [text, [key, item]]));
    const theirs = new Map(actual.entries.map(([key, item, text]) => [text, [key, item]]));
    const texts = [...new Set([...mine.keys(), ...theirs.keys()])];
    const keys = new Map(texts.map((text) => [text, (mine.get(text) ?? theirs.get(text))[0]]));
    return collect(texts.map((text) => [text, keys.get(text),
      !theirs.has(text) ? "missing" : !mine.has(text) ? "unexpected" : diff(mine.get(text)[1], theirs.get(text)[1], tolerance)]));
  }
  if (isNumber(expected)) return sameNumber(expected, actual, tolerance) ? null : "changed";
  return expected === actual ? null : "changed";
}

function collect(entries) {
  const kept = entries.filter(([, , node]) => node !== null);
  if (!kept.length) return null;
  return { children: new Map(kept.map(([at, , node]) => [at, node])), keys: new Map(kept.map(([at, key]) => [at, key])) };
}

/** The paths of a diff, labelled for the learner: "counts['the']", "x[2] (missing)", "s (missing 3; unexpected 4)". */
export function differences(node, path = "") {
  if (node === null) return [];
  if (node === "changed") return [path];
  if (node === "missing" || node === "unexpected") return [`${path} (${node})`];
  if (node.missing) {
    const said = [["missing", node.missing], ["unexpected", node.unexpected]]
      .filter(([, items]) => items.length).map(([word, items]) => `${word} ${items.map(keyRepr).join(", ")}`);
    return [`${path || "the set"} (${said.join("; ")})`];
  }
  return [...node.children].flatMap(([at, child]) => differences(child, join(path, node.keys.get(at))));
}

/** What a learner is told of a value that is not the expected one (both valueOf's). */
export function failMessage(expected, actual, tolerance = null) {
  if (!sameKind(expected, actual)) return `Expected ${typePhrase(expected)}, got ${typePhrase(actual)}.`;
  const node = diff(expected, actual, tolerance);
  if (node === "changed" && Array.isArray(expected)) return `Expected a list of ${expected.length} items, got ${actual.length}.`;
  const within = tolerance === null ? "" : ` (by more than ${repr(new PyFloat(tolerance))})`;
  const paths = differences(node);
  if (paths.length && !(paths.length === 1 && paths[0] === "")) return `Differs from expected${within} at: ${paths.join(", ")}.`;
  return tolerance === null ? "Returned a different value." : `Returned a different value${within}.`;
}

/** Where a printed text first differs from the expected one, for the learner. `cut`: the text was cut where the
 * interpreter stops keeping it (it printed far too much). */
export function printedMessage(expected, printed, cut = false) {
  if (cut) return `Printed too much: over ${printed.length.toLocaleString("en-US")} characters, the expected text has ${expected.length.toLocaleString("en-US")}.`;
  let at = 0;
  while (at < expected.length && at < printed.length && expected[at] === printed[at]) at++;
  const before = expected.slice(0, at);
  const line = before.split("\n").length;
  const column = at - before.lastIndexOf("\n");
  const quote = (text) => (text.length ? stringRepr(text.slice(at, at + QUOTED)) : "nothing more");
  const where = `line ${line}, column ${column}`;
  if (at === printed.length) return `Printed less than expected: it stops at ${where}, where ${quote(expected)} was expected.`;
  if (at === expected.length) return `Printed more than expected: from ${where} it printed ${quote(printed)}.`;
  return `Printed text differs from expected at ${where}: expected ${quote(expected)}, got ${quote(printed)}.`;
}

// The canonical JSON of an object of value texts and strs (keys sorted, as grader/canonical.py writes it).
const objectText = (parts) => `{${Object.keys(parts).sort().map((key) => `${asciiJson(key)}:${parts[key]}`).join(",")}}`;

/** What a hidden case's digest is of (docs/architecture.md, "Verdicts"), built from an outcome as the build built it
 * from the expectation: {"value": VALUE TEXT} or {"raises": {"type", "message"?}}, with "stdout" where checked.
 * `type`: the exception's type name tried (each of its mro's in turn). */
function hiddenText(checks, outcome, type = null) {
  const parts = {};
  if (checks.includes("value")) parts.value = outcome.value;
  if (checks.includes("raises_type")) {
    parts.raises = objectText({ type: asciiJson(type),
      ...(checks.includes("raises_message") ? { message: asciiJson(outcome.exception.message) } : {}) });
  }
  if (checks.includes("stdout")) parts.stdout = asciiJson(outcome.stdout ?? "");
  return objectText(parts);
}

// The text of a hidden case's digest that an outcome matches (the exception's type tried by each name of its mro),
// or null when it matches none.
async function hiddenMatchText(expect, outcome) {
  const { checks } = expect;
  const raises = checks.includes("raises_type");
  if (raises !== (outcome.kind === "error")) return null;
  if (raises && (checks.includes("raises_message") && typeof outcome.exception.message !== "string")) return null;
  for (const type of raises ? outcome.exception.mro : [null]) {
    const text = hiddenText(checks, outcome, type);
    if ((await sha256Hex(expect.salt + text)) === expect.digest) return text;
  }
  return null;
}

const hiddenMatch = async (expect, outcome) => (await hiddenMatchText(expect, outcome)) !== null;

/** What a case expects, as the text a hidden case's digest is of (loopcraft/course/cases.py expectation_text): from the
 * full form, or, for the hidden form, from an outcome that matches its digest (null if it does not). The reference
 * solution's unlock key is made of every case's (solution.js). */
export async function expectationText(expect, outcome) {
  if (expect.digest !== undefined) return hiddenMatchText(expect, outcome);
  const parts = {};
  if (expect.expected !== undefined) parts.value = expect.expected;
  if (expect.raises !== undefined) {
    parts.raises = objectText({ type: asciiJson(expect.raises.type),
      ...(expect.raises.message !== undefined ? { message: asciiJson(expect.raises.message) } : {}) });
  }
  if (expect.stdout !== undefined) parts.stdout = asciiJson(expect.stdout);
  return objectText(parts);
}

const raisedShown = (exception) => (exception.message ? `${exception.type}: ${exception.message}` : exception.type);

// A visible case's checks, in the order they are said: what is wrong with the outcome, or null.
function raisesMessage(raises, outcome) {
  if (outcome.kind === "value") return `Expected it to raise ${raises.type}, but it returned ${outcome.shown ?? "a value"}.`;
  const { exception } = outcome;
  if (!exception.mro.includes(raises.type)) return `Expected it to raise ${raises.type}, but it raised ${raisedShown(exception)}.`;
  if (raises.message !== undefined && exception.message !== raises.message) {
    if (exception.message === null) return `It raised ${raises.type} as expected, but its message could not be read (str() of it failed); expected ${stringRepr(raises.message)}.`;
    return `It raised ${raises.type} as expected, but with the message ${stringRepr(exception.message)}, not ${stringRepr(raises.message)}.`;
  }
  return null;
}

// An outcome the expectation judges (the others are the case's verdict as they are): a value, or the exception the
// call raised where one is expected.
const judged = (expect, outcome) => outcome.kind === "value" ||
  (outcome.kind === "error" && outcome.phase === "call" && Boolean(outcome.exception) &&
    (expect.raises !== undefined || (expect.checks ?? []).includes("raises_type")));

/**
 * The verdict of one case (a case of the results document: grader/results.py CaseResult.to_dict's shape, with
 * `private_details` and `hidden_actual`), from the case (see above) and its outcome (outcomes.js). `expected` and
 * `actual` are ValueText (verdict.js): the value text as it came, written out as it is.
 */
export async function judgeCase(testCase, outcome, timeLimit) {
  const hidden = Boolean(testCase.hidden); // true for a private case too: the course model's rule (loopcraft/course/course.py)
  const expect = testCase.expect ?? {};
  const result = { name: testCase.name, status: "pass", message: "", output: outcome.output ?? "", hidden,
    trace: outcome.trace ?? [], call_shown: testCase.call_shown ?? "" };
  if (testCase.private) result.private = true;
  if (!hidden) {
    result.expected = expect.expected === undefined ? null : new ValueText(expect.expected);
    result.actual = null;
    result.expected_shown = expect.expected_shown ?? "";
    if (expect.stdout !== undefined) Object.assign(result, { expected_stdout: expect.stdout, stdout: outcome.stdout ?? "" });
  }
  if (outcome.kind === "value") {
    result.actual = new ValueText(outcome.value);
    result.actual_shown = shownOf(outcome.value, outcome.shown);
  } else if (judged(expect, outcome)) {
    result.actual_shown = raisedShown(outcome.exception);
  }
  const fail = (message) => Object.assign(result, { status: "fail", message });
  const again = outcome.kind === "value" ? (outcome.again ?? null) : null;
  if (outcome.kind === "timeout") {
    Object.assign(result, { status: "timeout", message: timeoutMessage(timeLimit) });
  } else if (!judged(expect, outcome)) {
    Object.assign(result, { status: "error", message: outcome.error });
  } else if (testCase.call_twice && outcome.kind === "value" && again === null) {
    Object.assign(result, { status: "error", message: NOT_CALLED_TWICE });
  } else if (expect.digest !== undefined) {
    if (!(await hiddenMatch(expect, outcome))) fail(HIDDEN_FAIL);
  } else {
    const said = [];
    if (expect.raises !== undefined) said.push(raisesMessage(expect.raises, outcome));
    else if (expect.expected !== undefined) {
      const tolerance = expect.tolerance ?? null;
      const [mine, theirs] = [valueOf(expect.expected), valueOf(outcome.value)];
      // Equal values are equal texts (grader/canonical.py); a tolerance compares them by the walk.
      const same = tolerance === null ? outcome.value === expect.expected : diff(mine, theirs, tolerance) === null;
      if (!same) said.push(failMessage(mine, theirs, tolerance));
    }
    if (expect.stdout !== undefined && outcome.stdout !== expect.stdout) {
      said.push(printedMessage(expect.stdout, outcome.stdout ?? "", Boolean(outcome.stdout_cut)));
    }
    const wrong = said.filter((text) => text !== null);
    // A hidden case judged by its full expectation (one with a tolerance) says no more than one judged by digest.
    if (wrong.length) fail(hidden ? HIDDEN_FAIL : wrong.join(" "));
  }
  if (result.status === "pass" && again !== null && again !== outcome.value) {
    // Shown as a failed case is, with the second call's value as the actual one (the first's is the expected).
    result.actual = new ValueText(again);
    result.actual_shown = shownOf(again, outcome.again_shown);
    fail(hidden ? HIDDEN_AGAIN_FAIL : AGAIN_FAIL + failMessage(valueOf(outcome.value), valueOf(again)));
  }
  return result;
}

/** `outcome` if the judge can read it, else an error outcome for this one case: a malformed one (the worker's,
 * whatever the code it ran did) never takes the rest of a run with it. */
export function readable(outcome) {
  let problem = "the grader's result for it was malformed";
  const isObject = outcome !== null && typeof outcome === "object" && !Array.isArray(outcome);
  if (isObject && ["value", "error", "timeout"].includes(outcome.kind) && typeof (outcome.output ?? "") === "string") {
    if (outcome.kind === "timeout") return outcome;
    if (outcome.kind === "error" && typeof outcome.error === "string") return outcome;
    try {
      for (const text of [outcome.value, outcome.again ?? "null"]) valueOf(text);
      return outcome;
    } catch (error) {
      problem = `its return value could not be read back (${error.name})`;
    }
  }
  return errorOutcome(`This case could not be graded: ${problem}.`, "grader");
}

// Why a run ended before its last case, and what its verdict says of it: a run stopped by the learner, or at its
// first case that ran out of time (the page's rule: a loop then costs one time limit, not one a case).
const EARLY_END = {
  stopped: (notRun) => `The run was stopped: ${notRun} not run.`,
  timeout: (notRun) => `The run ended at a case that ran out of time: ${notRun} not run.`,
};

/**
 * The verdict of a run: `tests`, the verdicts of the cases that ran, in order, and their `outcomes`; `total`, the
 * cases the run had; `ended`, why it ended before the rest ran ("stopped" or "timeout").
 */
export function summarize(tests, outcomes, { total = tests.length, ended = null } = {}) {
  // The run's message is shown wherever the run is (a feedback page, --json, Gradescope's output): never one from a
  // private case, whose error may hold its inputs (code that raises only there, with its arguments, at load).
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

/**
 * The verdict of a whole run, the known mistakes it looks like named in its cases (`mistake`): what the Node runner
 * replies to a grading request. `outcomes`: those of the cases that ran, in order (fewer than `cases` only when the
 * run ended early: `ended`, see summarize); `catalogue`: the challenge's known mistakes ({salt, known}) or null.
 */
export async function judgeRun(cases, outcomes, { timeLimit, ended = null, catalogue = null }) {
  const tests = [];
  for (const [i, outcome] of outcomes.entries()) tests.push(await judgeCase(cases[i], outcome, timeLimit));
  const verdict = summarize(tests, outcomes, { total: cases.length, ended });
  const { hints, named } = await nameMistakes(verdict, catalogue);
  // The results document names them (grader/results.py RunResult.mistakes, CaseResult.mistake), where there are any.
  const withMistakes = tests.map((test) => (Object.hasOwn(named, test.name) ? { ...test, mistake: named[test.name] } : test));
  return hints.length ? { ...verdict, tests: withMistakes, mistakes: hints } : verdict;
}
