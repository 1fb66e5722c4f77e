// Known mistakes: a failing run that returns what a wrong solution of the challenge returns is told so. Matched
// here only, in the page and in the Node runner (judge.js judgeRun), out of the reach of the interpreter that ran the
// learner's code; loopcraft/authoring/mistakes.py makes the catalogue when the build verifies a challenge. A catalogue
// {salt, known: [{hint, cases: {name: fingerprint}}]} holds, per known mistake, its hint and a fingerprint of each
// case it fails: {status: "fail", value} for a visible case (the value text), {status: "fail", digest} for a hidden
// or private one (SHA-256 of the salt and the value text), {status: "error" | "timeout"}; a case that checks printed
// text holds what it printed in that text, and says so (`printed: true`).
import { asciiJson } from "./pyvalue.js";
import { ValueText } from "./verdict.js";

export const KNOWN_MISTAKE = "This looks like a known mistake: ";

/** What a learner is told of a mistake their run matches. */
export const said = (hint) => KNOWN_MISTAKE + hint;

export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const same = (mine, theirs) => mine.status === theirs.status && mine.value === theirs.value
  && mine.digest === theirs.digest;

const strictSubset = (a, b) => a.size < b.size && [...a].every((name) => b.has(name));

const failed = (fingerprint) => fingerprint !== null && fingerprint.status !== "pass";

/**
 * The mistakes of `known` that a run looks like, each with the cases compared, by `ran` ({name: fingerprint, or null
 * where it failed with a value not known}: the cases it ran, {status: "pass"} for one it passed): on every case the
 * mistake fails and the run ran, the fingerprints are equal (a case the run passed rules the mistake out), and at
 * least one was compared; none unless the matches together reproduce every failed case whose value is known (an
 * untouched starter, which fails everything, was told of any mistake it shared one case with). One whose compared
 * cases are a strict subset of another match's is left out; the rest come most compared cases first, then in the
 * catalogue's order.
 */
export function matchMistakes(known, ran) {
  const found = [];
  for (const mistake of known) {
    const compared = new Set();
    const agrees = Object.entries(mistake.cases).every(([name, theirs]) => {
      const mine = Object.hasOwn(ran, name) ? ran[name] : null;
      if (mine === null) return true; // not run, or failed with a value not known
      compared.add(name);
      return same(mine, theirs); // another value, or passed: the mistake would have failed it so
    });
    if (agrees && compared.size) found.push({ mistake, compared });
  }
  const explained = new Set(found.flatMap(({ compared }) => [...compared]));
  if (Object.entries(ran).some(([name, mine]) => failed(mine) && !explained.has(name))) return [];
  const kept = found.filter(({ compared }) => !found.some((other) => strictSubset(compared, other.compared)));
  kept.sort((a, b) => b.compared.size - a.compared.size); // stable: ties keep the catalogue's order
  return kept;
}

/** What a failed case did, as its fingerprint holds it (loopcraft/authoring/mistakes.py `did` says it the same way): the value
 * text of what it returned (`actual`, the second call's where the first was right), or "raised " and the exception as
 * Python shows it (`actual_shown`) for a case that had to raise and raised another; null where neither is known.
 * `printed`: the case checks printed text, so what it printed (`output`, as the learner is shown it) is part of it. */
export function did(test, printed = false) {
  const returned = test.actual instanceof ValueText ? test.actual.text
    : test.actual_shown ? `raised ${test.actual_shown}` : null;
  return returned !== null && printed ? `${returned}\nprinted ${asciiJson(test.output ?? "")}` : returned;
}

/** {case name: fingerprint} of a judged run's cases (`verdict.tests`, judge.js's); `printed`: the names of the cases
 * that check printed text (the catalogue's fingerprints say which). */
export async function fingerprints(verdict, salt, printed = new Set()) {
  const ran = {};
  for (const test of verdict.tests) {
    const text = test.status === "fail" ? did(test, printed.has(test.name)) : null;
    if (test.status !== "fail") ran[test.name] = { status: test.status };
    else if (text === null) ran[test.name] = null;
    else if (test.hidden) ran[test.name] = { status: "fail", digest: await sha256Hex(salt + text) };
    else ran[test.name] = { status: "fail", value: text };
    if (ran[test.name]?.status === "fail" && printed.has(test.name)) ran[test.name].printed = true;
  }
  return ran;
}

/** The known mistakes a judged run looks like: `hints`, best first, and `named`, {case name: the hint of the best
 * one that explains it}. None for a run that passed, or whose code could not be loaded. `catalogue`: {salt, known},
 * or null. */
export async function nameMistakes(verdict, catalogue) {
  if (!catalogue?.known?.length || verdict.status !== "fail") return { hints: [], named: {} };
  const printed = new Set(catalogue.known.flatMap((mistake) =>
    Object.entries(mistake.cases).filter(([, theirs]) => theirs.printed).map(([name]) => name)));
  const matches = matchMistakes(catalogue.known, await fingerprints(verdict, catalogue.salt, printed));
  const named = {};
  for (const test of verdict.tests) {
    const best = matches.find(({ compared }) => compared.has(test.name));
    if (best) named[test.name] = best.mistake.hint;
  }
  return { hints: matches.map(({ mistake }) => mistake.hint), named };
}
