// The page's known mistakes (frontend/src/mistakes.js) must name what loopcraft/mistakes.py names on every vector in
// tests/golden/mistake_vectors.json: whole runs judged by the page's judge (a correct run, visible and hidden values,
// errors, a run ended early, code that does not load, a case that calls twice), and the matcher alone.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { judgeCase, summarize } from "../../frontend/src/judge.js";
import { KNOWN_MISTAKE, knownMistakes, matchMistakes, said } from "../../frontend/src/mistakes.js";
import { initialState, mistakesOf, next } from "../../frontend/src/run-state.js";
import { valueOutcome } from "../../frontend/src/outcomes.js";

const vectors = JSON.parse(readFileSync(new URL("../golden/mistake_vectors.json", import.meta.url), "utf8"));

test("the page says a known mistake as the command line does", () => {
  assert.equal(KNOWN_MISTAKE, vectors.said);
  assert.equal(said("Stops too soon."), `${vectors.said}Stops too soon.`);
});

for (const { title, cases, outcomes, ended, hints } of vectors.runs) {
  test(`mistakes.js agrees with mistakes.py: ${title}`, async () => {
    const tests = await Promise.all(outcomes.map((o, i) => judgeCase(cases[i], o, 1.5)));
    const verdict = summarize(tests, outcomes, { total: cases.length, ended });
    assert.deepEqual(await knownMistakes(vectors.known, cases, verdict, outcomes), hints);
  });
}

for (const { title, ran, hints } of vectors.matches) {
  test(`matchMistakes agrees with match: ${title}`, () => {
    assert.deepEqual(matchMistakes(vectors.known, ran).map((m) => m.hint), hints);
  });
}

test("a page without known mistakes names none", async () => {
  const cases = [{ name: "a", hidden: false, expected_json: "1" }];
  const outcomes = [valueOutcome("2")];
  const verdict = summarize([await judgeCase(cases[0], outcomes[0], 1)], outcomes);
  assert.equal(verdict.status, "fail");
  assert.deepEqual(await knownMistakes(undefined, cases, verdict, outcomes), []);
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
