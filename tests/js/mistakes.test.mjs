// Known mistakes (frontend/src/mistakes.js) on the vectors of tests/golden/mistake_vectors.json: whole runs judged by
// the one judge (a correct run, visible and hidden values, errors, a run ended early, code that does not load, a case
// that calls twice), the hints they name and the cases each names it in; and the matcher alone. After an intended
// change: LOOPCRAFT_REGEN_GOLDEN=1 node --test tests/js/mistakes.test.mjs rewrites the answers, and the diff is
// reviewed.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { judgeCase, judgeRun, summarize } from "../../frontend/src/judge.js";
import { KNOWN_MISTAKE, matchMistakes, nameMistakes, said } from "../../frontend/src/mistakes.js";
import { initialState, mistakesOf, next } from "../../frontend/src/run-state.js";
import { valueOutcome } from "../../frontend/src/outcomes.js";

const file = new URL("../golden/mistake_vectors.json", import.meta.url);
const vectors = JSON.parse(readFileSync(file, "utf8"));
const regen = process.env.LOOPCRAFT_REGEN_GOLDEN === "1";

test("a known mistake is said as the command line says it", () => {
  assert.equal(KNOWN_MISTAKE, vectors.said);
  assert.equal(said("Stops too soon."), `${vectors.said}Stops too soon.`);
});

for (const vector of vectors.runs) {
  test(`a judged run names its known mistakes: ${vector.title}`, async () => {
    const verdict = await judgeRun(vector.cases, vector.outcomes, { timeLimit: 1.5, ended: vector.ended });
    const answer = await nameMistakes(verdict, vectors.catalogue);
    if (regen) Object.assign(vector, answer);
    assert.deepEqual({ hints: vector.hints, named: vector.named }, answer);
  });
}

for (const { title, ran, hints } of vectors.matches) {
  test(`the matcher alone: ${title}`, () => {
    assert.deepEqual(matchMistakes(vectors.catalogue.known, ran).map((m) => m.mistake.hint), hints);
  });
}

if (regen) {
  test.after(() => writeFileSync(file, `${JSON.stringify(vectors, null, 1)}\n`));
}

test("judgeRun names a run's known mistakes in its cases", async () => {
  const [vector] = vectors.runs.filter((v) => v.title.startsWith("two mistakes at once"));
  const verdict = await judgeRun(vector.cases, vector.outcomes, { timeLimit: 1.5, catalogue: vectors.catalogue });
  assert.deepEqual(Object.fromEntries(verdict.tests.filter((t) => t.mistake).map((t) => [t.name, t.mistake])), vector.named);
  assert.deepEqual(verdict.mistakes, vector.hints);
  assert.equal((await judgeRun(vector.cases, vector.outcomes, { timeLimit: 1.5 })).mistakes, undefined);
});

test("a run without known mistakes names none", async () => {
  const cases = [{ name: "a", hidden: false, expect: { expected: "1", expected_shown: "1" } }];
  const outcomes = [valueOutcome("2")];
  const verdict = summarize([await judgeCase(cases[0], outcomes[0], 1)], outcomes);
  assert.equal(verdict.status, "fail");
  assert.deepEqual(await nameMistakes(verdict, null), { hints: [], named: {} });
  assert.deepEqual(await nameMistakes(verdict, { salt: "s", known: [] }), { hints: [], named: {} });
});

// The run state keeps the hints a run's end named, and the status says them only once that run is over and failed.
test("the status names known mistakes only once a failed run is over", () => {
  const play = (events, from) => events.reduce((state, event) => next(Object.freeze(state), event), from);
  const ready = play([{ type: "python-ready" }], initialState);
  const judged = { type: "run-judged", tests: [{ name: "a", status: "fail" }], outcomes: [valueOutcome("2")] };
  const running = play([{ type: "run-started", kind: "cases", total: 1 }, judged], ready);
  const named = next(running, { type: "mistakes-named", hints: ["Adds one."] });
  assert.deepEqual(mistakesOf(named), []); // still busy: not said yet
  const over = next(named, { type: "run-ended" });
  assert.deepEqual(mistakesOf(over), ["Adds one."]);
  // The next run forgets them at once.
  assert.deepEqual(next(over, { type: "run-started", kind: "cases", total: 1 }).mistakes, []);
  // Named after the run ended (a late answer), or with no verdict: ignored.
  assert.deepEqual(next(over, { type: "mistakes-named", hints: ["Late."] }).mistakes, ["Adds one."]);
  const unjudged = play([{ type: "run-started", kind: "cases", total: 1 }], ready);
  assert.deepEqual(next(unjudged, { type: "mistakes-named", hints: ["x"] }).mistakes, []);
});

test("a case that had to raise and raised another is known by the exception it raised, visible or hidden", async () => {
  const { did, fingerprints } = await import("../../frontend/src/mistakes.js");
  const raisesCase = { name: "zero", expect: { raises: { type: "ValueError", message: "no" } }, call_shown: "f(0)" };
  const raised = { kind: "error", phase: "call", error: "TypeError: bad", output: "", trace: [],
    exception: { type: "TypeError", mro: ["TypeError", "Exception", "BaseException"], message: "bad" } };
  const visible = await judgeCase(raisesCase, raised, 1);
  assert.equal(visible.status, "fail");
  assert.equal(did(visible), "raised TypeError: bad");
  const hidden = await judgeCase({ ...raisesCase, hidden: true }, raised, 1);
  const [mine, theirs] = [await fingerprints({ tests: [visible] }, "s"), await fingerprints({ tests: [hidden] }, "s")];
  assert.deepEqual(mine.zero, { status: "fail", value: "raised TypeError: bad" });
  assert.equal(theirs.zero.status, "fail");
  assert.match(theirs.zero.digest, /^[0-9a-f]{64}$/);
});

test("a case of printed text is known by what it printed, and a catalogue's printed case is read so", async () => {
  const { did, nameMistakes } = await import("../../frontend/src/mistakes.js");
  const printedCase = { name: "one item", expect: { stdout: "apple: 0.40\n" }, call_shown: "main()" };
  const ran = (output) => ({ kind: "value", value: "null", shown: "None", output, stdout: output, trace: [] });
  const unformatted = await judgeCase(printedCase, ran("apple: 0.4\n\u00e9\n"), 1);
  const skipped = await judgeCase(printedCase, ran("apple: 0.40\nitems: 2\n"), 1);
  assert.equal(did(unformatted), "null");
  // The same text as loopcraft/authoring/mistakes.py `did` makes, tests/unit/test_mistakes.py
  assert.equal(did(unformatted, true), 'null\nprinted "apple: 0.4\\n\\u00e9\\n"');
  const catalogue = { salt: "s", known: [{ hint: "Two decimals.",
    cases: { "one item": { status: "fail", value: did(unformatted, true), printed: true } } }] };
  const verdict = (test) => ({ status: "fail", tests: [test] });
  assert.deepEqual((await nameMistakes(verdict(unformatted), catalogue)).hints, ["Two decimals."]);
  assert.deepEqual((await nameMistakes(verdict(skipped), catalogue)).hints, []);
});
