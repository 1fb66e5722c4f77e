// The challenge page's run state (frontend/src/run-state.js), event by event, as the page meets them: a full run, a
// failing one, Stop mid-run, the first timeout ending the run, a run pressed while Python loads, a second Run while
// one is on, Python restarted or failing, and the learner's scenario. What the status says is checked with it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { judgeCase } from "../../frontend/src/judge.js";
import { errorOutcome, timeoutOutcome, valueOutcome } from "../../frontend/src/outcomes.js";
import { canRun, failingOf, initialState, next, statusOf } from "../../frontend/src/run-state.js";
import { RESTART_REASONS } from "../../frontend/src/session.js";

// Three visible cases, each expecting 1.
const CASES = ["a", "b", "c"].map((name) => ({ name, hidden: false, expect: { expected: "1", expected_shown: "1" } }));
const PASS = valueOutcome("1");
const FAIL = valueOutcome("2");

// Every state frozen before the next event: the reducer makes new states, it never changes one.
const play = (events, from = initialState) => events.reduce((state, event) => next(Object.freeze(state), event), from);

const ready = play([{ type: "python-loading" }, { type: "python-ready" }]);
const started = (total = CASES.length) => ({ type: "run-started", kind: "cases", total });

// The events of the cases that ran to their end, each started then finished, as the session calls them back.
const cases = (outcomes) => outcomes.flatMap((outcome, index) => [
  { type: "case-started", index },
  { type: "case-finished", index, outcome },
]);

// The page's run-judged: the verdicts of the cases that ran, judged as app.js judges them.
async function judged(outcomes) {
  const tests = await Promise.all(outcomes.map((o, i) => judgeCase(CASES[i], o, 1.5)));
  return { type: "run-judged", tests, outcomes };
}

test("before any run: loading, then ready to run", () => {
  assert.deepEqual(statusOf(initialState),
    { state: "loading", outcome: null, text: "Loading Python… you can start writing meanwhile." });
  assert.deepEqual(statusOf(ready), { state: "ready", outcome: null, text: "Python is ready. Press Run to check your code." });
  assert.equal(canRun(ready), true);
});

test("a full run: running case by case, still running while judged, then every case passed", async () => {
  const running = play([started(), ...cases([PASS, PASS]), { type: "case-started", index: 2 }], ready);
  assert.deepEqual(statusOf(running), { state: "running", outcome: null, text: "Running case 3 of 3…" });
  assert.equal(canRun(running), false);
  const verdictIn = play([{ type: "case-finished", index: 2, outcome: PASS }, await judged([PASS, PASS, PASS])], running);
  // "ready" only once the run is over: the page unlocks the solution in between.
  assert.equal(statusOf(verdictIn).state, "running");
  assert.deepEqual([verdictIn.verdict.status, verdictIn.verdict.message, verdictIn.verdict.tests.length], ["pass", null, 3]);
  const over = next(verdictIn, { type: "run-ended" });
  assert.deepEqual(statusOf(over), { state: "ready", outcome: "pass", text: "3 of 3 cases passed. Well done!" });
  assert.deepEqual([over.busy, over.ended, failingOf(over)], [false, null, []]);
});

test("Starting… until the first case starts", () => {
  assert.equal(statusOf(play([started()], ready)).text, "Starting…");
});

test("a failing run names its failing cases", async () => {
  const over = play([started(), ...cases([PASS, FAIL, FAIL]), await judged([PASS, FAIL, FAIL]), { type: "run-ended" }], ready);
  assert.deepEqual(statusOf(over), { state: "ready", outcome: "fail", text: "1 of 3 cases passed." });
  assert.deepEqual(failingOf(over), [1, 2]);
});

test("Stop mid-run: stopping, then a stopped run that says how many did not run", async () => {
  const stopping = play([started(), ...cases([PASS]), { type: "case-started", index: 1 }, { type: "stop-requested" }], ready);
  assert.deepEqual(statusOf(stopping), { state: "running", outcome: null, text: "Stopping…" });
  assert.equal(next(stopping, { type: "stop-requested" }), stopping, "a second Stop (Escape, say) changes nothing");
  const over = play([await judged([PASS]), { type: "run-ended" }], stopping);
  assert.deepEqual([over.verdict.status, over.verdict.message], ["fail", "The run was stopped: 2 not run."]);
  assert.deepEqual(statusOf(over),
    { state: "ready", outcome: "stopped", text: "You stopped the run: 1 of 3 cases passed, 2 not run." });
  assert.deepEqual([over.ended, over.stopping, failingOf(over)], ["stopped", false, []]);
});

test("the first timeout ends the run: a fail that says so, naming the case", async () => {
  const outcomes = [PASS, timeoutOutcome()];
  const over = play([started(), ...cases(outcomes), await judged(outcomes), { type: "run-ended" }], ready);
  assert.deepEqual([over.verdict.status, over.verdict.message],
    ["fail", "The run ended at a case that ran out of time: 1 not run."]);
  assert.deepEqual(statusOf(over),
    { state: "ready", outcome: "fail", text: "1 of 3 cases passed; the run ended at a case that ran out of time." });
  assert.deepEqual([over.ended, failingOf(over)], ["timeout", [1]]);
});

test("a timeout and a Stop in the same moment: the run ended at the timeout, whichever came first", async () => {
  const outcomes = [timeoutOutcome()];
  for (const order of [[...cases(outcomes), { type: "stop-requested" }], [{ type: "case-started", index: 0 },
    { type: "stop-requested" }, { type: "case-finished", index: 0, outcome: outcomes[0] }]]) {
    const over = play([started(), ...order, await judged(outcomes), { type: "run-ended" }], ready);
    assert.deepEqual([over.ended, statusOf(over).outcome], ["timeout", "fail"]);
  }
});

test("a timeout at the last case leaves nothing unrun: a plain failing run", async () => {
  const outcomes = [PASS, PASS, timeoutOutcome()];
  const over = play([started(), ...cases(outcomes), await judged(outcomes), { type: "run-ended" }], ready);
  assert.deepEqual([over.verdict.message, over.ended], [null, null]);
  assert.deepEqual(statusOf(over), { state: "ready", outcome: "fail", text: "2 of 3 cases passed." });
});

test("Stop pressed as the last case finished: every case ran, and the run is judged whole", async () => {
  const outcomes = [PASS, PASS, PASS];
  const over = play([started(), ...cases(outcomes), { type: "stop-requested" }, await judged(outcomes),
    { type: "run-ended" }], ready);
  assert.deepEqual(statusOf(over), { state: "ready", outcome: "pass", text: "3 of 3 cases passed. Well done!" });
});

test("code that cannot load ends the run: an error, said once, no case named", async () => {
  const outcomes = [errorOutcome("SyntaxError: x", "load")];
  const over = play([started(), ...cases(outcomes), await judged(outcomes), { type: "run-ended" }], ready);
  assert.deepEqual([over.verdict.status, over.verdict.message, over.ended], ["error", "SyntaxError: x", null]);
  assert.deepEqual(statusOf(over), { state: "ready", outcome: "error",
    text: "Your code could not be loaded, so no case ran: see the error below." });
  assert.deepEqual(failingOf(over), []);
});

test("Run while Python loads: the run waits for it, then runs", () => {
  const waiting = play([{ type: "python-loading" }, started()]);
  assert.deepEqual(statusOf(waiting),
    { state: "loading", outcome: null, text: "Loading Python… your run starts as soon as it is ready." });
  const running = play([{ type: "python-ready" }, { type: "case-started", index: 0 }], waiting);
  assert.deepEqual(statusOf(running), { state: "running", outcome: null, text: "Running case 1 of 3…" });
});

test("Run while Python loads, stopped before it is ready: no case ran, said once Python is", async () => {
  const over = play([{ type: "python-loading" }, started(), { type: "stop-requested" }, await judged([]),
    { type: "run-ended" }]);
  assert.equal(over.verdict.message, "The run was stopped: 3 not run.");
  assert.deepEqual(statusOf(over).state, "loading");
  assert.deepEqual(statusOf(next(over, { type: "python-ready" })),
    { state: "ready", outcome: "stopped", text: "You stopped the run: 0 of 3 cases passed, 3 not run." });
});

test("a second Run while one is on changes nothing, nor does the scenario's", () => {
  const running = play([started(), { type: "case-started", index: 1 }], ready);
  assert.equal(next(running, started()), running);
  assert.equal(next(running, { type: "run-started", kind: "scenario", total: 1 }), running);
});

test("a new run forgets the last one's verdict", async () => {
  const over = play([started(1), ...cases([FAIL]), await judged([FAIL]), { type: "run-ended" }], ready);
  assert.deepEqual(failingOf(over), [0]);
  const again = next(over, started());
  assert.deepEqual([again.verdict, again.ended, again.current, failingOf(again)], [null, null, null, []]);
});

test("Python restarted during a run: said with its reason, kept for tests once Python is back", async () => {
  const restarting = play([started(), { type: "case-started", index: 0 },
    { type: "python-restarting", reason: RESTART_REASONS.noInterrupt }], ready);
  assert.deepEqual(statusOf(restarting), { state: "restarting", outcome: null,
    text: "Restarting Python (a case ran out of time, and this page cannot interrupt Python)…" });
  const back = play([{ type: "python-ready" }, { type: "case-finished", index: 0, outcome: timeoutOutcome() },
    await judged([timeoutOutcome()]), { type: "run-ended" }], restarting);
  assert.deepEqual([statusOf(back).state, back.restartReason], ["ready", RESTART_REASONS.noInterrupt]);
});

test("every reason for a restart is said", () => {
  for (const reason of Object.values(RESTART_REASONS)) {
    const { text } = statusOf(next(ready, { type: "python-restarting", reason }));
    assert.match(text, /^Restarting Python \([a-z][^)]+\)…$/, reason);
    assert.doesNotMatch(text, /undefined/, reason);
  }
});

test("Python fails while a run waits for it: the run stops, and no other starts", () => {
  const failed = play([{ type: "python-loading" }, started(), { type: "python-failed", message: "no network" },
    { type: "run-failed", message: "no network" }, { type: "run-ended" }]);
  assert.deepEqual(statusOf(failed),
    { state: "error", outcome: null, text: "Python failed to load (no network). Reload the page to try again." });
  assert.equal(canRun(failed), false);
  assert.equal(next(failed, started()), failed);
});

test("a run that could not go on says why", () => {
  const over = play([started(), { type: "run-failed", message: "the worker is gone" }, { type: "run-ended" }], ready);
  assert.deepEqual(statusOf(over), { state: "ready", outcome: "error", text: "The run stopped: the worker is gone" });
});

test("the learner's scenario: never an outcome, its own words", () => {
  const scenario = { type: "run-started", kind: "scenario", total: 1 };
  assert.equal(statusOf(play([scenario], ready)).text, "Running your scenario…");
  for (const [outcome, text] of [
    [valueOutcome("1"), "Your scenario ran: see what your code returned below (not graded)."],
    [errorOutcome("ValueError: x", "call"), "Your scenario ended with an error: see it below (not graded)."],
    [timeoutOutcome(), "Your scenario ran out of time (not graded)."],
  ]) {
    const over = play([scenario, { type: "scenario-returned", outcome }, { type: "run-ended" }], ready);
    assert.deepEqual(statusOf(over), { state: "ready", outcome: null, text });
  }
  const stopped = play([scenario, { type: "stop-requested" }, { type: "run-failed", message: "you stopped it" },
    { type: "run-ended" }], ready);
  assert.deepEqual(statusOf(stopped), { state: "ready", outcome: null, text: "Your scenario did not run: you stopped it" });
});

test("an event the page does not have is refused", () => {
  assert.throws(() => next(ready, { type: "case-done" }), /not a run event: case-done/);
});
