// The session's decisions (frontend/src/session-state.js), event by event, as the page and the Node runner meet
// them: Python's start and its one retry, a run, a stop, the first timeout, a case that ignores its interrupt, a
// crash and the interpreter renewed, a worker lost and replaced, a case skipped, the budget, a run asked while one
// runs, messages and timers arriving late; then session.js's wiring, driven with a fake Worker.
import assert from "node:assert/strict";
import { test } from "node:test";
import { errorOutcome, notRun, timeoutOutcome, valueOutcome, workerFailed } from "../../frontend/src/outcomes.js";
import { INTERRUPT_GRACE_MS, initialState, next, RESTART_REASONS } from "../../frontend/src/session-state.js";
import { browserSpawner, createSession } from "../../frontend/src/session.js";

const LIMIT = 1000;
// A challenge page's session (page-session.js) and the Node runner's (node-runner.mjs).
const PAGE = { timeLimitMs: LIMIT, interrupt: true, background: true, fresh: false, renewEachRun: true };
const NODE = { timeLimitMs: LIMIT, interrupt: true, background: true, fresh: true, renewEachRun: true };
const NO_INTERRUPT = { ...PAGE, interrupt: false };

const frozen = (state) => {
  for (const part of [state, state.config, state.run, state.run?.sent, state.run?.outcomes, state.run?.case, state.asked]) {
    if (part) Object.freeze(part);
  }
  return state;
};

// Every state frozen before the next event (the reducer makes new states, it never changes one); `at` 0 unless given.
function play(state, events) {
  const effects = [];
  for (const event of events) {
    const result = next(frozen(state), { at: 0, ...event });
    state = result.state;
    effects.push(...result.effects);
  }
  return { state, effects };
}

const from = (worker, message) => ({ type: "worker-message", worker, message });
const READY = { type: "ready", version: "3.14.2", snapshot: "restored", keeping: false, phases: { python: 5 } };
const ready = (worker, at = 0) => ({ ...from(worker, READY), at });
const done = (worker, runId, index, outcome, crashed = false) => from(worker, { type: "case-done", runId, index, outcome, crashed });
const PASS = valueOutcome("1");
const TWO = valueOutcome("2");
const CASES = ["a", "b", "c"].map((name) => ({ name, run: { entry: "f", args: `{"n": "${name}"}` } }));
const SPEC = { source: "def f(n): ...", sandbox: "", cases: CASES };
const caller = { name: "the caller" }; // what a run's effects are addressed to
const asked = (spec = SPEC, stopAt = () => false, who = caller) => ({ type: "run", spec, stopAt, caller: who });
const endsAtTimeout = (outcome) => outcome.kind === "timeout";

// The effects of one type, each without its type.
const only = (effects, type) => effects.filter((e) => e.type === type).map(({ type: _, ...rest }) => rest);
const states = (effects) => only(effects, "state").map((e) => e.state);
const posted = (effects) => only(effects, "post").map((e) => e.message);
const caseMessage = (runId, index, seq) => ({ type: "run-case", runId, index, seq, source: SPEC.source, sandbox: "", run: CASES[index].run });

// A session whose first worker is up.
const started = (config = PAGE) => play(initialState(config), [{ type: "start" }, ready(1)]).state;

test("start: loading, the first worker spawned and told whether it may keep a snapshot, then ready and idle", () => {
  const { state, effects } = play(initialState({ ...PAGE, background: false }), [{ type: "start", at: 100 }]);
  assert.deepEqual(effects, [
    { type: "state", state: "loading" },
    { type: "expect-ready", chain: false },
    { type: "spawn", worker: 1, keepSnapshot: false },
  ]);
  const up = play(state, [ready(1, 1600.4)]);
  assert.deepEqual(up.effects, [
    { type: "resolve-ready" },
    { type: "arm-idle" },
    { type: "state", state: "ready", detail: { version: "3.14.2", loadMs: 1500, snapshot: "restored", keeping: false, phases: { python: 5 } } },
  ]);
  assert.deepEqual(play(up.state, [{ type: "idle-due" }]).effects, [{ type: "idle" }]);
});

test("a snapshot the worker could not restore is told as it said it: Python booted, snapshot missing", () => {
  const { effects } = play(initialState(PAGE), [{ type: "start" }, from(1, { ...READY, snapshot: "missing", keeping: true })]);
  assert.deepEqual(only(effects, "state")[1].detail, { version: "3.14.2", loadMs: 0, snapshot: "missing", keeping: true, phases: { python: 5 } });
});

test("a page's run sends every case at once, reports each, then renews the interpreter for the next run", () => {
  const { state, effects } = play(started(), [asked()]);
  assert.deepEqual(posted(effects), [caseMessage(1, 0, 1), caseMessage(1, 1, 2), caseMessage(1, 2, 3)]);
  assert.deepEqual(effects.slice(-2), [
    { type: "case-started", caller, index: 0 },
    { type: "timer", seq: 1, ms: LIMIT, event: "time-up" },
  ]);
  assert.deepEqual(states(effects), ["running"]);
  const over = play(state, [done(1, 1, 0, PASS), done(1, 1, 1, TWO), done(1, 1, 2, PASS)]);
  assert.deepEqual(only(over.effects, "case-done"), [{ caller, index: 0, outcome: PASS }, { caller, index: 1, outcome: TWO }, { caller, index: 2, outcome: PASS }]);
  assert.deepEqual(only(over.effects, "case-started").map((e) => e.index), [1, 2]);
  assert.deepEqual(only(over.effects, "clear-timers").map((e) => e.seq), [1, 2, 3]);
  assert.deepEqual(over.effects.slice(-5), [
    { type: "arm-idle" },
    { type: "expect-ready", chain: false },
    { type: "post", message: { type: "renew" } },
    { type: "state", state: "finished" },
    { type: "run-done", caller, outcomes: [PASS, TWO, PASS] },
  ]);
  assert.deepEqual([over.state.run, over.state.used, over.state.ready], [null, false, "waiting"]);
});

test("the next run waits for the renewed interpreter before its first case", () => {
  const { state } = play(started(), [asked(), done(1, 1, 0, PASS), done(1, 1, 1, PASS), done(1, 1, 2, PASS)]);
  const waiting = play(state, [asked({ ...SPEC, cases: CASES.slice(0, 1) })]);
  assert.deepEqual(waiting.effects, []);
  const renewed = play(waiting.state, [from(1, { type: "renewed", how: "reset" })]);
  assert.deepEqual(renewed.effects.slice(0, 3), [
    { type: "resolve-ready" },
    { type: "state", state: "running" },
    { type: "post", message: { ...caseMessage(2, 0, 4) } },
  ]);
});

test("the Node runner's session sends one case at a time, each once the one before has answered", () => {
  const { state, effects } = play(started(NODE), [asked()]);
  assert.deepEqual(posted(effects), [caseMessage(1, 0, 1)]);
  const after = play(state, [done(1, 1, 0, PASS)]);
  assert.deepEqual(posted(after.effects), [caseMessage(1, 1, 2)]);
});

test("a run that finds its interpreter used (the run before failed) renews it and waits before its first case", () => {
  const failing = { name: "a caller whose onCaseDone threw" };
  const { state } = play(started(NODE), [asked(SPEC, () => false, failing), { type: "callback-failed", caller: failing, error: new Error("no") }]);
  assert.equal(state.used, true);
  const { state: waiting, effects } = play(state, [asked()]);
  assert.deepEqual(effects, [{ type: "expect-ready", chain: false }, { type: "post", message: { type: "renew" } }]);
  const renewed = play(waiting, [from(1, { type: "renewed", how: "reset" })]);
  assert.deepEqual(posted(renewed.effects), [caseMessage(2, 0, 2)]);
});

test("a run asked while Python loads waits for it, and runs once it is ready", () => {
  const loading = play(initialState(PAGE), [{ type: "start" }, asked()]);
  assert.deepEqual(posted(loading.effects), []);
  const { effects } = play(loading.state, [ready(1)]);
  assert.deepEqual(states(effects), ["ready", "running"]);
  assert.equal(posted(effects).length, 3);
  assert.deepEqual(only(effects, "arm-idle"), [], "no background work while a run is on");
});

test("Stop while Python loads ends the run at once with no outcome, and says nothing finished", () => {
  const { state, effects } = play(initialState(PAGE), [{ type: "start" }, asked(), { type: "stop" }]);
  assert.deepEqual(effects.slice(3), [{ type: "run-done", caller, outcomes: [] }]);
  assert.deepEqual(only(effects, "arm-idle"), [], "whenIdle waits for Python");
  assert.deepEqual(states(play(state, [ready(1)]).effects), ["ready"]);
});

test("Stop when no run is on does nothing", () => {
  assert.deepEqual(play(started(), [{ type: "stop" }]).effects, []);
  assert.deepEqual(play(initialState(PAGE), [{ type: "stop" }]).effects, []);
});

test("Stop mid-case interrupts it and every case sent; the run ends with the cases that ran once it answers", () => {
  const { state, effects } = play(started(), [asked(), done(1, 1, 0, PASS), { type: "stop" }]);
  assert.deepEqual(effects.slice(-3), [
    { type: "interrupt", seq: 2 },
    { type: "timer", seq: 2, ms: INTERRUPT_GRACE_MS, event: "grace-over" },
    { type: "interrupt", seq: 3 },
  ]);
  const interrupted = errorOutcome("KeyboardInterrupt", "call");
  const over = play(state, [done(1, 1, 1, interrupted)]);
  assert.deepEqual(only(over.effects, "case-done"), [], "a stopped case has no outcome");
  assert.deepEqual(over.effects.at(-1), { type: "run-done", caller, outcomes: [PASS] });
});

test("Stop where Python cannot be interrupted restarts it, and the run ends at once", () => {
  const { state, effects } = play(started(NO_INTERRUPT), [asked(), { type: "stop" }]);
  assert.deepEqual(effects.slice(-6), [
    { type: "clear-timers", seq: 1 },
    { type: "terminate" },
    { type: "state", state: "restarting", detail: { reason: RESTART_REASONS.stopped } },
    { type: "expect-ready", chain: false },
    { type: "spawn", worker: 2, keepSnapshot: true },
    { type: "run-done", caller, outcomes: [] },
  ]);
  assert.equal(state.loaded, false);
});

test("the first timeout: the case is interrupted, its answer is a timeout keeping its output, and stopAt ends the run", () => {
  const { state, effects } = play(started(), [asked(SPEC, endsAtTimeout), { type: "time-up", seq: 1 }]);
  assert.deepEqual(effects.slice(-2), [
    { type: "interrupt", seq: 1 },
    { type: "timer", seq: 1, ms: INTERRUPT_GRACE_MS, event: "grace-over" },
  ]);
  const interrupted = errorOutcome("KeyboardInterrupt", "call", "printed\n", [], { stdout: "printed\n" });
  const over = play(state, [done(1, 1, 0, interrupted)]);
  const timedOut = timeoutOutcome("printed\n", "printed\n");
  assert.deepEqual(only(over.effects, "case-done"), [{ caller, index: 0, outcome: timedOut }]);
  assert.deepEqual(only(over.effects, "interrupt"), [{ seq: 3 }], "the cases sent after it are not to run");
  assert.deepEqual(over.effects.at(-1), { type: "run-done", caller, outcomes: [timedOut] });
});

test("a timeout where Python cannot be interrupted restarts it, and the run goes on in the new worker", () => {
  const { state, effects } = play(started(NO_INTERRUPT), [asked(), { type: "time-up", seq: 1 }]);
  assert.deepEqual(posted(effects), [caseMessage(1, 0, 1)], "one case at a time without an interrupt");
  assert.deepEqual(only(effects, "case-done"), [{ caller, index: 0, outcome: timeoutOutcome() }]);
  assert.deepEqual(states(effects), ["running", "restarting"]);
  assert.deepEqual(only(effects, "state")[1].detail, { reason: RESTART_REASONS.noInterrupt });
  assert.deepEqual(only(effects, "spawn"), [{ worker: 2, keepSnapshot: true }]);
  const going = play(state, [ready(2)]);
  assert.deepEqual(states(going.effects), ["ready", "running"]);
  assert.deepEqual(posted(going.effects), [caseMessage(1, 1, 2)]);
});

test("a case that ignores its interrupt past the grace: Python restarted, no answer; one answered meanwhile is read", () => {
  const timedOut = play(started(), [asked(), { type: "time-up", seq: 1 }]).state;
  // The worker answered (the shared count says so) but the page has not read it yet: not stuck.
  const answering = play(timedOut, [{ type: "grace-over", seq: 1, answered: 1 }]);
  assert.deepEqual(answering.effects, []);
  const stuck = play(timedOut, [{ type: "grace-over", seq: 1, answered: 0 }]);
  assert.deepEqual(only(stuck.effects, "case-done"), [{ caller, index: 0, outcome: timeoutOutcome() }]);
  assert.deepEqual(only(stuck.effects, "state").at(-1).detail, { reason: RESTART_REASONS.noAnswer });
  assert.deepEqual(only(stuck.effects, "interrupt"), [{ seq: 3 }], "the cases sent after it are not to run");
});

test("a crash: the case's outcome stands, the interpreter is renewed, and the cases after it are sent again", () => {
  const crashed = errorOutcome("Python crashed while running your code: boom", "call");
  const { state, effects } = play(started(), [asked(), done(1, 1, 0, crashed, true)]);
  assert.deepEqual(effects.slice(-4), [
    { type: "case-done", caller, index: 0, outcome: crashed },
    { type: "interrupt", seq: 3 },
    { type: "expect-ready", chain: false },
    { type: "post", message: { type: "renew" } },
  ]);
  const renewed = play(state, [from(1, { type: "renewed", how: "started", why: "it broke" })]);
  assert.deepEqual(posted(renewed.effects), [caseMessage(1, 1, 4), caseMessage(1, 2, 5)]);
  assert.deepEqual(states(renewed.effects), [], "still running: nothing new to say");
});

test("Stop while a crashed interpreter is renewed ends the run at once", () => {
  const crashed = errorOutcome("Python crashed while running your code: boom", "call");
  const { state } = play(started(), [asked(), done(1, 1, 0, crashed, true)]);
  const { effects } = play(state, [{ type: "stop" }]);
  assert.deepEqual(effects.at(-1), { type: "run-done", caller, outcomes: [crashed] });
  assert.deepEqual(states(effects), ["finished"]);
});

test("a worker lost while a case runs: that case is an error, Python restarts, the run goes on", () => {
  const error = new Error("its worker thread ended (exit code 1)");
  const { state, effects } = play(started(NODE), [asked(), { type: "worker-error", worker: 1, error }]);
  assert.deepEqual(only(effects, "case-done"), [{ caller, index: 0, outcome: workerFailed(error) }]);
  assert.deepEqual(only(effects, "state").at(-1).detail, { reason: RESTART_REASONS.workerFailed });
  assert.deepEqual(posted(play(state, [ready(2)]).effects), [caseMessage(1, 1, 2)]);
});

test("a worker lost between cases is replaced, and a run waiting for its renew gets the new one", () => {
  const { state } = play(started(NODE), [asked({ ...SPEC, cases: CASES.slice(0, 1) }), done(1, 1, 0, PASS)]);
  assert.equal(state.ready, "waiting", "renewing for the next run");
  const lost = play(state, [asked(), { type: "worker-error", worker: 1, error: new Error("gone") }]);
  assert.deepEqual(lost.effects.slice(0, 2), [
    { type: "terminate" },
    { type: "state", state: "restarting", detail: { reason: RESTART_REASONS.workerFailed } },
  ]);
  assert.deepEqual(only(lost.effects, "expect-ready"), [{ chain: true }], "whenReady() so far settles with the new worker");
  const going = play(lost.state, [ready(2)]);
  assert.deepEqual(posted(going.effects), [caseMessage(2, 0, 2)]);
});

test("Python that fails to start is tried once more, then the failure is told and the waiting run fails with it", () => {
  const first = play(initialState(PAGE), [{ type: "start" }, asked(), { type: "worker-error", worker: 1, error: new Error("fetch failed") }]);
  assert.deepEqual(first.effects.slice(-3), [
    { type: "warn", message: "Python failed to start (fetch failed); trying once more" },
    { type: "terminate" },
    { type: "spawn", worker: 2, keepSnapshot: true },
  ]);
  const error = new Error("its WebAssembly could not be loaded: no");
  const second = play(first.state, [from(2, { type: "fatal", message: error.message })]);
  assert.deepEqual(second.effects, [
    { type: "reject-ready", error },
    { type: "state", state: "error", detail: { message: error.message } },
    { type: "run-failed", caller, error },
  ]);
  const later = play(second.state, [asked()]);
  assert.deepEqual(later.effects, [{ type: "run-failed", caller, error }], "a run asked after fails at once");
});

test("a renew that fails to start Python in the first worker is tried in a new worker; the waiting run goes on there", () => {
  const { state } = play(started(), [asked({ ...SPEC, cases: CASES.slice(0, 1) }), done(1, 1, 0, PASS), asked()]);
  const fatal = from(1, { type: "fatal", message: "the snapshot could not be restored" });
  const { state: retried, effects } = play(state, [fatal]);
  assert.deepEqual(effects, [
    { type: "warn", message: "Python failed to start (the snapshot could not be restored); trying once more" },
    { type: "terminate" },
    { type: "spawn", worker: 2, keepSnapshot: true },
  ]);
  const going = play(retried, [ready(2)]);
  assert.deepEqual(states(going.effects), ["ready", "running"]);
  assert.deepEqual(posted(going.effects), [caseMessage(2, 0, 2), caseMessage(2, 1, 3), caseMessage(2, 2, 4)]);
});

test("a case skipped by a broken interpreter is sent again once it is renewed", () => {
  const { state, effects } = play(started(NODE), [asked(), from(1, { type: "case-skipped", runId: 1, index: 0, seq: 1 })]);
  assert.deepEqual(only(effects, "case-done"), []);
  assert.deepEqual(effects.slice(-2), [{ type: "expect-ready", chain: false }, { type: "post", message: { type: "renew" } }]);
  const renewed = play(state, [from(1, { type: "renewed", how: "started", why: "it broke" })]);
  assert.deepEqual(posted(renewed.effects), [caseMessage(1, 0, 2)]);
});

test("a failure outside any case: the next case waits for a renewed interpreter", () => {
  const between = play(started(NODE), [from(1, { type: "failed", message: "late rejection" }), asked()]);
  assert.deepEqual(posted(between.effects), [{ type: "renew" }], "before the run's first case");
  assert.deepEqual(posted(play(between.state, [from(1, { type: "renewed", how: "started" })]).effects), [caseMessage(1, 0, 1)]);
  // Told while a case runs (something an earlier case left): the case after it waits.
  const during = play(started(NODE), [asked(), from(1, { type: "failed", message: "late rejection" }), done(1, 1, 0, PASS)]);
  assert.deepEqual(posted(during.effects), [caseMessage(1, 0, 1), { type: "renew" }]);
});

test("a budget: a case starts only while the time left holds its whole limit; the rest are not run", () => {
  const spec = { ...SPEC, budgetMs: 2500 };
  const { state, effects } = play(started(NODE), [{ ...asked(spec), at: 100 }]);
  assert.deepEqual(posted(effects), [caseMessage(1, 0, 1)], "no case sent ahead with a budget");
  const { effects: after } = play(state, [{ ...done(1, 1, 0, PASS), at: 1700 }]);
  assert.deepEqual(only(after, "case-done"), [
    { caller, index: 0, outcome: PASS },
    { caller, index: 1, outcome: notRun(2.5) },
    { caller, index: 2, outcome: notRun(2.5) },
  ]);
  assert.deepEqual(posted(after), [{ type: "renew" }]);
});

test("a run asked while one runs waits for it to end, then runs", () => {
  const second = { name: "the second caller" };
  const { state, effects } = play(started(NODE), [asked(), asked(SPEC, () => false, second)]);
  assert.deepEqual(posted(effects), [caseMessage(1, 0, 1)]);
  const first = play(state, [done(1, 1, 0, PASS), done(1, 1, 1, PASS), done(1, 1, 2, PASS)]);
  assert.deepEqual(only(first.effects, "run-done"), [{ caller, outcomes: [PASS, PASS, PASS] }]);
  assert.deepEqual(posted(first.effects).at(-1), { type: "renew" });
  assert.deepEqual(only(first.effects, "case-started").map((e) => e.caller), [caller, caller], "the second waits for the renew");
  const renewed = play(first.state, [from(1, { type: "renewed", how: "reset" })]);
  assert.deepEqual(posted(renewed.effects), [caseMessage(2, 0, 4)]);
  assert.deepEqual(only(renewed.effects, "case-started"), [{ caller: second, index: 0 }]);
});

test("messages from a worker already replaced, and timers of cases already over, change nothing", () => {
  const { state } = play(started(NO_INTERRUPT), [asked(), { type: "time-up", seq: 1 }]);
  for (const late of [
    done(1, 1, 0, PASS), ready(1), from(1, { type: "renewed" }), from(1, { type: "failed", message: "x" }),
    from(1, { type: "fatal", message: "x" }), { type: "worker-error", worker: 1, error: new Error("x") },
    { type: "time-up", seq: 1 }, { type: "grace-over", seq: 1, answered: 0 },
    from(2, { type: "snapshot-done", saved: 0 }),
  ]) {
    const after = play(state, [late]);
    assert.deepEqual(after.effects, [], late.message?.type ?? late.type);
    assert.deepEqual(after.state, state);
  }
});

test("an answer for a case the run is not waiting for (another index, another run) is not taken for it", () => {
  const { state } = play(started(), [asked()]);
  assert.deepEqual(play(state, [done(1, 1, 1, PASS)]).effects, []);
  assert.deepEqual(play(state, [done(1, 7, 0, PASS)]).effects, []);
});

test("a run with no time limit is refused, and the next one asked runs", () => {
  const { effects } = play(started(), [asked({ ...SPEC, timeLimitMs: 0 })]);
  assert.deepEqual(effects, [{ type: "run-failed", caller, error: new Error("no time limit for this run (got 0)") }]);
  const limitless = play(initialState({ ...PAGE, timeLimitMs: undefined }), [{ type: "start" }, ready(1), asked()]);
  assert.deepEqual(limitless.effects.at(-1), { type: "run-failed", caller, error: new Error("no time limit for this run (got undefined)") });
});

test("a callback that throws ends its run with that error, its case given up and the cases sent called back", () => {
  const error = new Error("onCaseStart failed");
  const { state, effects } = play(started(), [asked(), { type: "callback-failed", caller, error }]);
  assert.deepEqual(effects.slice(-4), [
    { type: "interrupt", seq: 3 },
    { type: "clear-timers", seq: 1 },
    { type: "arm-idle" },
    { type: "run-failed", caller, error },
  ]);
  assert.equal(state.run, null);
  assert.deepEqual(play(state, [{ type: "callback-failed", caller, error }]).effects, [], "a run over already");
});

test("Stop while the first renew is on waits for it, then ends the run with no case run", () => {
  const failing = { name: "failing" };
  let { state } = play(started(NODE), [asked(SPEC, () => false, failing), { type: "callback-failed", caller: failing, error: new Error("x") }]);
  ({ state } = play(state, [asked(), { type: "stop" }]));
  assert.notEqual(state.run, null, "the renew is not cut short");
  const { effects } = play(state, [from(1, { type: "renewed", how: "reset" })]);
  assert.deepEqual(effects, [{ type: "resolve-ready" }, { type: "arm-idle" }, { type: "state", state: "finished" }, { type: "run-done", caller, outcomes: [] }]);
});

test("Stop while a worker restarts mid-run waits for it, says running, then ends the run", () => {
  const { state } = play(started(NO_INTERRUPT), [asked(), { type: "time-up", seq: 1 }, { type: "stop" }]);
  assert.notEqual(state.run, null);
  const { effects } = play(state, [ready(2)]);
  assert.deepEqual(states(effects), ["ready", "running", "finished"]);
  assert.deepEqual(effects.at(-1), { type: "run-done", caller, outcomes: [timeoutOutcome()] });
});

test("whenIdle: settled once Python is ready and no run is on; not while a run is on, nor before Python is back", () => {
  const running = play(started(), [asked()]).state;
  assert.deepEqual(play(running, [{ type: "idle-due" }]).effects, []);
  const restarted = play(started(NO_INTERRUPT), [asked(), { type: "stop" }]).state;
  assert.deepEqual(play(restarted, [{ type: "idle-due" }]).effects, []);
  const idle = play(started(), [{ type: "idle-due" }]).state;
  assert.deepEqual(play(idle, [{ type: "idle-due" }]).effects, [], "once");
});

test("an event that is none of the session's is refused", () => {
  assert.throws(() => next(initialState(PAGE), { type: "reboot" }), /not a session event: reboot/);
});

// --- session.js: the effects carried out, through browserSpawner, on a fake Worker ---------------------------------

class FakeWorker {
  static made = [];
  constructor(url, options) {
    Object.assign(this, { url, options, sent: [], terminated: false, onmessage: null, onerror: null });
    FakeWorker.made.push(this);
  }
  postMessage(message) {
    this.sent.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  answer(data) {
    this.onmessage({ data });
  }
}

// Polled every 200 ms (real timers: a case's limit, the idle timer), never a timed assertion.
async function until(check) {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 200));
}

test("session.js carries the effects out: init, ready, a run's cases and their answers, an interrupt, whenIdle", async (t) => {
  globalThis.Worker = FakeWorker;
  t.after(() => delete globalThis.Worker);
  FakeWorker.made = [];
  const told = [];
  const session = createSession({ spawn: browserSpawner("assets/worker.js"), timeLimitMs: 60_000, renewEachRun: true,
    onState: (state, detail) => told.push([state, detail?.reason ?? detail?.version]) });
  const [worker] = FakeWorker.made;
  assert.deepEqual(worker.options, { type: "module", name: "session" });
  const [init] = worker.sent;
  assert.deepEqual([init.type, init.keepSnapshot, init.interruptBuffer instanceof Int32Array, init.answered instanceof Int32Array], ["init", true, true, true]);
  worker.answer(READY);
  await session.whenReady();
  await session.whenIdle();

  const seen = [];
  const running = session.run({ ...SPEC, cases: CASES.slice(0, 2) }, { onCaseStart: (i) => seen.push(["start", i]), onCaseDone: (i, o) => seen.push(["done", i, o.value]) });
  assert.deepEqual(worker.sent.slice(1).map((m) => [m.type, m.index, m.seq]), [["run-case", 0, 1], ["run-case", 1, 2]]);
  worker.answer({ type: "case-done", runId: 1, index: 0, outcome: PASS, crashed: false });
  worker.answer({ type: "case-done", runId: 1, index: 1, outcome: TWO, crashed: false });
  assert.deepEqual(await running, [PASS, TWO]);
  assert.deepEqual(seen, [["start", 0], ["done", 0, "1"], ["start", 1], ["done", 1, "2"]]);
  assert.deepEqual(worker.sent.at(-1), { type: "renew" });
  worker.answer({ type: "renewed", how: "reset" });
  await session.whenReady();

  // A case over its (short) limit: the interrupt buffer names it; the worker answers once it sees that.
  const timing = session.run({ ...SPEC, cases: CASES.slice(0, 1), timeLimitMs: 50 }, {});
  const { seq } = worker.sent.at(-1);
  await until(() => Atomics.load(init.interruptBuffer, 0) === seq);
  Atomics.store(init.answered, 0, seq);
  worker.answer({ type: "case-done", runId: 2, index: 0, outcome: errorOutcome("KeyboardInterrupt", "call"), crashed: false });
  assert.deepEqual(await timing, [timeoutOutcome()]);
  session.stop(); // between runs: nothing
  assert.deepEqual(told, [["loading", undefined], ["ready", "3.14.2"], ["running", undefined], ["finished", undefined], ["running", undefined], ["finished", undefined]]);
  assert.equal(worker.terminated, false);
});

test("session.js: a worker that failed before the page listened is replaced, and only its replacement gets init", (t) => {
  globalThis.Worker = FakeWorker;
  t.after(() => delete globalThis.Worker);
  const early = new FakeWorker("assets/worker.js", { type: "module", name: "session" });
  early.earlyError = "the worker's script failed to load";
  FakeWorker.made = [];
  createSession({ spawn: browserSpawner("assets/worker.js", early), timeLimitMs: 60_000, onState: () => {} });
  const [replacement] = FakeWorker.made;
  assert.equal(early.terminated, true);
  assert.deepEqual(replacement.sent.map((m) => m.type), ["init"]);
});

test("session.js: a callback that throws rejects its run with that error", async (t) => {
  globalThis.Worker = FakeWorker;
  t.after(() => delete globalThis.Worker);
  FakeWorker.made = [];
  const session = createSession({ spawn: browserSpawner("assets/worker.js"), timeLimitMs: 60_000, onState: () => {} });
  FakeWorker.made[0].answer(READY);
  const running = session.run(SPEC, { onCaseStart: () => { throw new Error("the page broke"); } });
  await assert.rejects(running, /the page broke/);
});
