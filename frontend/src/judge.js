// Verdicts in the page: the same rules as grader/judge.py (tests/golden/judge_vectors.json keeps
// them in step). The worker that ran the learner's code only hands back canonical JSON; comparing
// happens here, out of its reach.

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const HIDDEN_FAIL = "Hidden case: your result differs from the expected one.";

export function typePhrase(value) {
  if (value === null) return "None";
  if (typeof value === "boolean") return "a bool";
  if (typeof value === "number") return Number.isInteger(value) ? "an int" : "a float";
  if (typeof value === "string") return "a string";
  if (Array.isArray(value)) return "a list";
  return "a dict";
}

function join(path, key) {
  if (typeof key === "number") return `${path}[${key}]`;
  if (IDENTIFIER.test(key)) return path ? `${path}.${key}` : key;
  return `${path}['${key}']`;
}

const isDict = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
// Python sorts keys by code point; so does this (localeCompare would not).
const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

export function differences(expected, actual, path = "") {
  if (isDict(expected) && isDict(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort(byCodePoint);
    return keys.flatMap((key) => {
      const where = join(path, key);
      if (!(key in actual)) return [`${where} (missing)`];
      if (!(key in expected)) return [`${where} (unexpected)`];
      return differences(expected[key], actual[key], where);
    });
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    return expected.flatMap((item, i) => differences(item, actual[i], join(path, i)));
  }
  const same = typePhrase(expected) === typePhrase(actual) && (isDict(expected) || Array.isArray(expected) ? false : expected === actual);
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

// Python's f"{x:g}" for the small positive numbers a time limit takes.
export const timeoutMessage = (limit) =>
  `Stopped after ${String(limit)} s, the time limit for one case. Look for a loop that never ends.`;

export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// `publicCase`: {name, hidden, expected, expected_json} for a visible case, {name, hidden, digest, salt} for a hidden one.
export async function judgeCase(publicCase, outcome, timeLimit) {
  const hidden = Boolean(publicCase.hidden);
  const result = { name: publicCase.name, status: "pass", message: "", output: outcome.output ?? "", hidden, trace: outcome.trace ?? [] };
  if (!hidden) {
    result.expected = publicCase.expected;
    result.actual = null;
  }
  if (outcome.kind === "timeout") {
    Object.assign(result, { status: "timeout", message: timeoutMessage(timeLimit) });
  } else if (outcome.kind === "error") {
    Object.assign(result, { status: "error", message: outcome.error });
  } else if (hidden) {
    if ((await sha256Hex(publicCase.salt + outcome.value)) !== publicCase.digest) {
      Object.assign(result, { status: "fail", message: HIDDEN_FAIL });
    }
  } else {
    result.actual = JSON.parse(outcome.value);
    // Both sides are canonical JSON written by grader/canonical.py, so equal values are equal strings.
    if (outcome.value !== publicCase.expected_json) {
      Object.assign(result, { status: "fail", message: failMessage(result.expected, result.actual) });
    }
  }
  return result;
}

export function summarize(tests, outcomes) {
  const loadError = outcomes.find((o) => o.kind === "error" && o.phase === "load");
  if (loadError) return { version: 3, status: "error", message: loadError.error, tests };
  const status = tests.every((t) => t.status === "pass") ? "pass" : "fail";
  return { version: 3, status, message: null, tests };
}
