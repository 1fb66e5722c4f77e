// Known mistakes in the page: loopcraft/mistakes.py's matching, rule for rule (tests/golden/mistake_vectors.json
// holds both to the same answers). The page's data carries, per known mistake, its hint and a fingerprint of each
// published case it fails: {status: "fail", value} for a visible case (canonical JSON), {status: "fail", digest} for a
// hidden one (SHA-256 of the case's salt and the canonical JSON), {status: "error" | "timeout"}. The worker that ran
// the learner's code only hands back canonical JSON; comparing happens here, out of its reach.
import { sha256Hex } from "./judge.js";

export const KNOWN_MISTAKE = "This looks like a known mistake: ";

/** What a learner is told of a mistake their run matches. */
export const said = (hint) => KNOWN_MISTAKE + hint;

const same = (mine, theirs) => mine.status === theirs.status && mine.value === theirs.value
  && mine.digest === theirs.digest;

const strictSubset = (a, b) => a.size < b.size && [...a].every((name) => b.has(name));

const failed = (fingerprint) => fingerprint !== null && fingerprint.status !== "pass";

/**
 * The mistakes of `known` ([{hint, cases: {name: fingerprint}}]) that a run looks like, by `ran` ({name: fingerprint,
 * or null where it failed with a value not known}: the cases it ran, {status: "pass"} for one it passed): on every
 * case the mistake fails and the run ran, the fingerprints are equal (a case the run passed rules the mistake out),
 * and at least one was compared; none unless the matches together reproduce every failed case whose value is known.
 * One whose compared cases are a strict subset of another match's is left out; the rest come most compared cases
 * first, then in the catalogue's order.
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
  // Named only when together they reproduce every failed case whose value is known: an untouched starter, which fails
  // everything, was told of any mistake it shared one case with.
  const explained = new Set(found.flatMap(({ compared }) => [...compared]));
  if (Object.entries(ran).some(([name, mine]) => failed(mine) && !explained.has(name))) return [];
  const kept = found.filter(({ compared }) => !found.some((other) => strictSubset(compared, other.compared)));
  kept.sort((a, b) => b.compared.size - a.compared.size); // stable: ties keep the catalogue's order
  return kept.map(({ mistake }) => mistake);
}

// What the judge compared of a failed case (grader/judge.py's actual_json): the second call's value where the first
// was the expected one (a case that calls the function twice), else the first call's.
async function returnedOf(publicCase, outcome) {
  if (outcome.again === undefined || outcome.again === null) return outcome.value;
  const firstRight = publicCase.hidden
    ? (await sha256Hex(publicCase.salt + outcome.value)) === publicCase.digest
    : outcome.value === publicCase.expected_json;
  return firstRight ? outcome.again : outcome.value;
}

/** {case name: fingerprint} of the cases a run ran: `cases`, the page's; `tests` and `outcomes`, the verdicts and
 * outcomes of the cases that ran, in order. */
export async function fingerprints(cases, tests, outcomes) {
  const ran = {};
  for (const [index, test] of tests.entries()) {
    if (test.status !== "fail") {
      ran[test.name] = { status: test.status };
      continue;
    }
    const publicCase = cases[index];
    const returned = await returnedOf(publicCase, outcomes[index]);
    ran[test.name] = publicCase.hidden
      ? { status: "fail", digest: await sha256Hex(publicCase.salt + returned) }
      : { status: "fail", value: returned };
  }
  return ran;
}

/** The hints of the known mistakes (the page's `mistakes`) a judged run looks like: none for a run that passed, or
 * whose code could not be loaded. */
export async function knownMistakes(known, cases, verdict, outcomes) {
  if (!known?.length || verdict.status !== "fail") return [];
  return matchMistakes(known, await fingerprints(cases, verdict.tests, outcomes)).map((m) => m.hint);
}
