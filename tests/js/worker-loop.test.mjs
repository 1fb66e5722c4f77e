// The worker's loop (frontend/src/worker-state.js), event by event: init and Python's start (eager or not, a
// snapshot told or not), cases one at a time in the order sent, a case the driver gave up on, a crash, a tampered
// grader, a failure outside any case (told, or a case's), renew (reset in place, refused, or a new interpreter),
// a start that fails, make-snapshot; then worker-core.js's serveLoop driven with a fake driver and interpreter.
import assert from "node:assert/strict";
import { test } from "node:test";
import { crashed, errorOutcome, valueOutcome } from "../../frontend/src/outcomes.js";
import { serveLoop } from "../../frontend/src/worker-core.js";
import { initialState, next } from "../../frontend/src/worker-state.js";

// A page's worker (worker.js) and the Node runner's (node-worker.mjs).
const PAGE = { resets: true, waitsTask: false, snapshots: true, tellsSnapshot: true, eager: true };
const NODE = { resets: true, waitsTask: true, snapshots: true, tellsSnapshot: false, eager: false };

const frozen = (state) => Object.freeze(Object.freeze(state).queue) && state;

// Every state frozen before the next event; `interrupted` 0 unless given.
function play(state, events) {
  const effects = [];
  for (const event of events) {
    const result = next(frozen(state), { interrupted: 0, ...event });
    state = result.state;
    effects.push(...result.effects);
  }
  return { state, effects };
}

const buffers = () => ({ interruptBuffer: new Int32Array(new SharedArrayBuffer(4)), answered: new Int32Array(new SharedArrayBuffer(4)) });
const message = (m) => ({ type: "message", message: m });
const init = (keepSnapshot = true, shared = buffers()) => message({ type: "init", ...shared, keepSnapshot });
const served = (reply, more = {}) => ({ type: "served", reply, version: "3.14.2", restored: "restored", keeping: false, phases: { python: 4 }, ...more });
const runCase = (seq, index = seq - 1, runId = 1) => message({ type: "run-case", runId, index, seq, source: "src", sandbox: "", run: { entry: "f" } });
const PASS = valueOutcome("1");
const returned = (outcome = PASS) => ({ type: "case-returned", text: JSON.stringify(outcome) });
const posted = (effects) => effects.filter((e) => e.type === "post").map((e) => e.message);
const doneMessage = (seq, outcome = PASS, crashedToo = false, index = seq - 1) => ({ type: "case-done", runId: 1, index, outcome, crashed: crashedToo });
const RUN = { type: "run", source: "src", sandbox: "", run: { entry: "f" } };

// A worker whose Python is up and told ready.
const PREPARED = { type: "prepared", error: null };
const up = (config = PAGE) => play(initialState(config), [{ type: "start" }, init(), served("ready"), PREPARED]).state;

test("an eager worker boots at once; init tells it whether it may keep a snapshot, and it says ready once up", () => {
  const { state, effects } = play(initialState(PAGE), [{ type: "start" }, init(false)]);
  assert.deepEqual(effects, [{ type: "boot" }, { type: "want-snapshot", keep: false }, { type: "serve", reply: "ready" }]);
  const ready = play(state, [served("ready", { keeping: false })]);
  assert.deepEqual(ready.effects, [
    { type: "post", message: { type: "ready", version: "3.14.2", snapshot: "restored", keeping: false, phases: { python: 4 } } },
    { type: "prepare" },
  ], "told first, then set up for cases");
  assert.equal(play(ready.state, [PREPARED]).state.pristine, true);
});

test("a case sent before the interpreter is set up waits for it, and one that cannot be set up is fatal", () => {
  const { state, effects } = play(initialState(PAGE), [{ type: "start" }, init(), served("ready"), runCase(1)]);
  assert.deepEqual(effects.filter((e) => e.type === "run"), []);
  assert.deepEqual(play(state, [PREPARED]).effects.filter((e) => e.type === "run"), [RUN]);
  const failed = play(state, [{ type: "prepared", error: new Error("the grader could not close Python's builtin _ctypes") }]);
  assert.deepEqual(failed.effects, [{ type: "post", message: { type: "fatal", message: "the grader could not close Python's builtin _ctypes" } }]);
});

test("a worker that is not eager boots on init; Python booted without a snapshot says missing, or nothing where none is told", () => {
  const page = play(initialState({ ...PAGE, eager: false }), [{ type: "start" }, init(), served("ready", { restored: false })]);
  assert.deepEqual(page.effects.slice(0, 3), [{ type: "want-snapshot", keep: true }, { type: "boot" }, { type: "serve", reply: "ready" }]);
  assert.equal(posted(page.effects)[0].snapshot, "missing", "its snapshot refused, or none found");
  const node = play(initialState(NODE), [{ type: "start" }, init(), served("ready")]);
  assert.equal(posted(node.effects)[0].snapshot, undefined);
});

test("Python that cannot start says fatal", () => {
  const { effects } = play(initialState(PAGE), [{ type: "start" }, init(), { type: "serve-failed", error: new Error("its standard library could not be loaded") }]);
  assert.deepEqual(posted(effects), [{ type: "fatal", message: "its standard library could not be loaded" }]);
});

test("cases run one at a time in the order sent, each answered (and counted answered) before the next starts", () => {
  const { state, effects } = play(up(), [runCase(1), runCase(2)]);
  assert.deepEqual(effects, [RUN]);
  assert.deepEqual([state.running, state.inCase, state.queue.length], [1, true, 1]);
  const first = play(state, [returned()]);
  assert.deepEqual(first.effects, [{ type: "answered", seq: 1 }, { type: "post", message: doneMessage(1) }, RUN]);
  assert.equal(first.state.running, 2);
  const second = play(first.state, [returned(valueOutcome("2"))]);
  assert.deepEqual(posted(second.effects), [doneMessage(2, valueOutcome("2"))]);
  assert.deepEqual([second.state.running, second.state.inCase, second.state.case], [0, false, null]);
});

test("the Node worker waits a task after each case, and a failure the case left behind in it is that case's crash", () => {
  const { state, effects } = play(up(NODE), [runCase(1), returned()]);
  assert.deepEqual(effects.slice(-1), [{ type: "wait-task" }]);
  assert.equal(state.running, 0, "Python runs nothing while the task ends");
  const left = new Error("a promise the case rejected");
  const after = play(state, [{ type: "uncaught", error: left }, { type: "task-done" }]);
  assert.deepEqual(posted(after.effects), [doneMessage(1, crashed(left), true)], "not told as failed: the case's");
  assert.equal(after.state.spoiled, "crashed");
});

test("a case the driver has given up on (the interrupt buffer names it) is not run, and says nothing", () => {
  const { state, effects } = play(up(), [{ ...runCase(1), interrupted: 3 }]);
  assert.deepEqual(effects, []);
  assert.equal(state.case, null);
  assert.deepEqual(play(state, [{ ...runCase(4), interrupted: 3 }]).effects, [RUN]);
});

test("a worker without an interrupt buffer runs every case it is sent", () => {
  const state = play(initialState(PAGE), [{ type: "start" }, init(true, { interruptBuffer: null, answered: null }), served("ready"), PREPARED]).state;
  assert.deepEqual(play(state, [{ ...runCase(1), interrupted: 9 }]).effects, [RUN]);
});

test("a crash: the case answers as crashed, the cases after it are skipped until renew, which starts a new interpreter", () => {
  const { state, effects } = play(up(), [runCase(1), runCase(2), runCase(3), { type: "case-returned", error: new RangeError("Maximum call stack size exceeded") }]);
  assert.deepEqual(posted(effects), [
    doneMessage(1, crashed(new RangeError("Maximum call stack size exceeded")), true),
    { type: "case-skipped", runId: 1, index: 1, seq: 2 },
    { type: "case-skipped", runId: 1, index: 2, seq: 3 },
  ]);
  const renewed = play(state, [message({ type: "renew" })]);
  assert.deepEqual(renewed.effects, [{ type: "boot" }, { type: "serve", reply: "renewed", why: "it broke" }]);
  assert.deepEqual(posted(play(renewed.state, [served("renewed", { why: "it broke" })]).effects), [{ type: "renewed", how: "started", why: "it broke" }]);
  assert.deepEqual(play(renewed.state, [served("renewed", { why: "it broke" }), PREPARED, runCase(4, 1)]).effects.at(-1), RUN, "cases run again once renewed");
});

test("a result that is not an outcome (the grader tampered with), or not JSON, is a crash", () => {
  for (const text of ['{"kind": "value"}', "not json", "null"]) {
    const { effects } = play(up(), [runCase(1), { type: "case-returned", text }]);
    const [done] = posted(effects);
    assert.equal(done.crashed, true, text);
    assert.equal(done.outcome.kind, "error");
    assert.match(done.outcome.error, /^Python crashed while running your code: /);
  }
});

test("a grader that saw its environment changed: the outcome stands, the case says crashed, and renew resets in place", () => {
  const outcome = errorOutcome("the grader's environment was changed", "grader");
  const { state, effects } = play(up(), [runCase(1), returned({ ...outcome, restart: true })]);
  assert.deepEqual(posted(effects), [doneMessage(1, outcome, true)], "restart is not part of the outcome");
  assert.equal(state.spoiled, "tampered");
  const { state: resetting, effects: renew } = play(state, [message({ type: "renew" })]);
  assert.deepEqual(renew, [{ type: "reset" }]);
  assert.deepEqual(posted(play(resetting, [{ type: "reset-done", refused: null }]).effects), [{ type: "renewed", how: "reset" }]);
});

test("renew: reset in place; a reset that cannot vouch for the interpreter starts another, saying why", () => {
  const { state } = play(up(), [runCase(1), returned(), message({ type: "renew" })]);
  const refused = play(state, [{ type: "reset-done", refused: "a module's memory grew" }]);
  assert.deepEqual(refused.effects, [{ type: "boot" }, { type: "serve", reply: "renewed", why: "a module's memory grew" }]);
  assert.equal(refused.state.pristine, false);
});

test("renew where no image was kept (no resets) starts another interpreter", () => {
  const { effects } = play(up({ ...NODE, resets: false }), [message({ type: "renew" })]);
  assert.deepEqual(effects, [{ type: "boot" }, { type: "serve", reply: "renewed", why: "none was kept" }]);
});

test("a failure outside any case is told once as failed; the next case is skipped, and renew starts afresh", () => {
  const { state, effects } = play(up(), [{ type: "uncaught", error: new Error("late") }, { type: "uncaught", error: new Error("later") }]);
  assert.deepEqual(posted(effects), [{ type: "failed", message: "late" }]);
  assert.deepEqual(posted(play(state, [runCase(1)]).effects), [{ type: "case-skipped", runId: 1, index: 0, seq: 1 }]);
  assert.deepEqual(play(state, [message({ type: "renew" })]).effects, [{ type: "boot" }, { type: "serve", reply: "renewed", why: "it broke" }]);
});

test("a failure with no reason at all (a promise rejected with null) spoils the interpreter all the same", () => {
  const { state, effects } = play(up(NODE), [runCase(1), returned(), { type: "uncaught", error: null }, { type: "task-done" }]);
  assert.deepEqual(posted(effects), [doneMessage(1, crashed(null), true)]);
  assert.equal(state.spoiled, "crashed");
});

test("make-snapshot makes one where there is a store, and says how many bytes it kept", () => {
  const { effects } = play(initialState({ ...PAGE, eager: false }), [message({ type: "make-snapshot" }), { type: "snapshot-made", saved: 1234 }]);
  assert.deepEqual(effects, [{ type: "make-snapshot" }, { type: "post", message: { type: "snapshot-done", saved: 1234 } }]);
  assert.deepEqual(play(initialState({ ...PAGE, snapshots: false }), [message({ type: "make-snapshot" })]).effects, []);
});

test("a message that is none of the protocol's is ignored; an event that is none of the loop's is refused", () => {
  assert.deepEqual(play(up(), [message({ type: "run-everything" })]).effects, []);
  assert.throws(() => next(up(), { type: "reboot" }), /not a worker event: reboot/);
});

// --- worker-core.js's serveLoop: the effects carried out, with a fake driver and interpreter --------------------

class FakeScope {
  constructor() {
    this.sent = [];
    this.onmessage = null;
    this.onUncaught = null;
  }
  postMessage(m) {
    this.sent.push(m);
  }
}

function fakeInterpreter() {
  const calls = [];
  let running = null;
  return {
    calls,
    runningNow: () => running(),
    boot: () => calls.push("boot"),
    serve: async (options) => {
      calls.push(["serve", options.version]);
      return { version: options.version ? "3.14.2" : undefined, restored: false, keeping: true, phases: {} };
    },
    prepare: (options) => {
      calls.push("prepare");
      running = options.running;
    },
    reset: () => (calls.push("reset"), null),
    runCase: (source, sandbox, run) => {
      calls.push(["run", JSON.parse(run).entry, running()]);
      if (JSON.parse(run).entry === "boom") throw new RangeError("Maximum call stack size exceeded");
      return JSON.stringify(PASS);
    },
    wantSnapshot: (keep) => calls.push(["want", keep]),
    makeSnapshot: async () => 99,
  };
}

test("serveLoop carries the effects out: boot, serve, cases run with Python told which is running, answered, renew", async () => {
  const scope = new FakeScope();
  const interpreter = fakeInterpreter();
  serveLoop({ interpreter, post: (m) => scope.postMessage(m), listen: (handler) => (scope.onmessage = handler),
    onUncaught: (handler) => (scope.onUncaught = handler), eager: true, resets: true, snapshots: true, tellsSnapshot: true });
  const shared = buffers();
  scope.onmessage({ type: "init", ...shared, keepSnapshot: true });
  await new Promise(setImmediate);
  assert.deepEqual(scope.sent, [{ type: "ready", version: "3.14.2", snapshot: "missing", keeping: true, phases: {} }]);
  scope.onmessage({ type: "run-case", runId: 1, index: 0, seq: 1, source: "", sandbox: "", run: { entry: "f" } });
  scope.onmessage({ type: "run-case", runId: 1, index: 1, seq: 2, source: "", sandbox: "", run: { entry: "boom" } });
  Atomics.store(shared.interruptBuffer, 0, 3); // the driver gave up on case 3 before it came
  scope.onmessage({ type: "run-case", runId: 1, index: 2, seq: 3, source: "", sandbox: "", run: { entry: "f" } });
  assert.deepEqual(scope.sent.slice(1).map((m) => [m.type, m.index, m.crashed]), [["case-done", 0, false], ["case-done", 1, true]]);
  assert.equal(Atomics.load(shared.answered, 0), 2);
  assert.equal(interpreter.runningNow(), 0);
  scope.onmessage({ type: "renew" });
  await new Promise(setImmediate);
  assert.deepEqual(scope.sent.at(-1), { type: "renewed", how: "started", why: "it broke" });
  scope.onUncaught(new Error("late"));
  assert.deepEqual(scope.sent.at(-1), { type: "failed", message: "late" });
  scope.onmessage({ type: "make-snapshot" });
  await new Promise(setImmediate);
  assert.deepEqual(scope.sent.at(-1), { type: "snapshot-done", saved: 99 });
  assert.deepEqual(interpreter.calls, ["boot", ["want", true], ["serve", true], "prepare", ["run", "f", 1], ["run", "boom", 2], "boot", ["serve", false], "prepare"]);
});
