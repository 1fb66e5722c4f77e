// The session's decisions (session.js), as a pure reducer: next(state, event) -> {state, effects}. session.js holds
// one state, turns what happens (a worker's message, a timer, run() and stop()) into the events below, and carries
// out the effects, plain data, in order: it decides nothing. tests/js/session.test.mjs walks every sequence here
// under node --test. What the session does, and why, is said at the top of session.js.
import { notRun, timeoutOutcome, workerFailed } from "./outcomes.js";

// Generous: a busy machine can be slow to turn the interrupt into an answer; waiting costs only time, while a
// restart costs a Pyodide load. Learner code that catches the KeyboardInterrupt and loops on uses it all up.
export const INTERRUPT_GRACE_MS = 2500;
// Why Python was restarted (onState("restarting", {reason})), for the page to say and tests to check.
export const RESTART_REASONS = {
  noInterrupt: "no-interrupt", // a case ran out of time where Python cannot be interrupted (no SharedArrayBuffer)
  noAnswer: "no-answer", // interrupted, the case did not answer within the grace (it caught the interrupt)
  stopped: "stopped", // a run was stopped where Python cannot be interrupted
  workerFailed: "worker-failed", // the worker failed or ended after Python was ready
};
const SKIPPED = "skipped"; // a case the worker did not run ("case-skipped"): sent again once renewed (not a restart)

/**
 * The events, each stamped by session.js with `at` (performance.now(), ms):
 * @typedef {{type: "start"}} Start the session is made: its first worker starts
 * @typedef {{type: "worker-message", worker: number, message: object}} WorkerMessage from worker number `worker`
 * @typedef {{type: "worker-error", worker: number, error: Error}} WorkerError it failed, or ended
 * @typedef {{type: "run", spec: object, stopAt: Function, caller: object}} Run run(spec): spec {source, sandbox,
 *   cases, timeLimitMs?, budgetMs?}; stopAt(outcome), pure, ends the run after the first case it holds for; caller:
 *   what the effects of this run are addressed to (session.js's, opaque here)
 * @typedef {{type: "stop"}} Stop stop()
 * @typedef {{type: "time-up" | "grace-over", seq: number, answered: number}} Timer a case's timer (see "timer"
 *   below); answered: the shared count of the last case the worker answered, as read when it fired (0 without one)
 * @typedef {{type: "idle-due"}} IdleDue the idle timer fired
 * @typedef {{type: "callback-failed", caller: object, error: Error}} CallbackFailed onCaseStart or onCaseDone threw
 *
 * The effects:
 *   {type: "state", state, detail?}           onState(state, detail)
 *   {type: "spawn", worker, keepSnapshot}     start worker number `worker` and send it "init"
 *   {type: "terminate"}                       end the current worker
 *   {type: "post", message}                   send the current worker `message`
 *   {type: "interrupt", seq}                  raise the interrupt buffer to `seq`
 *   {type: "timer", seq, ms, event}           in `ms`, the event {type: event, seq}
 *   {type: "clear-timers", seq}               the timers of case `seq` are off
 *   {type: "arm-idle"}                        soon, the event idle-due
 *   {type: "idle"}                            settle whenIdle()
 *   {type: "expect-ready", chain}             whenReady() gives a new promise; chain: the one it gave before settles
 *                                             with it (a run may be waiting for it)
 *   {type: "resolve-ready"} | {type: "reject-ready", error}
 *   {type: "warn", message}                   console.warn
 *   {type: "case-started", caller, index} | {type: "case-done", caller, index, outcome}   the run's callbacks
 *   {type: "run-done", caller, outcomes} | {type: "run-failed", caller, error}           run()'s promise
 */

/** The state of a session made with createSession's options. */
export function initialState({ timeLimitMs, interrupt, background, fresh, renewEachRun }) {
  return {
    config: { timeLimitMs, interrupt, background, fresh, renewEachRun },
    worker: 0, // the number of the current worker: a message of any other is late, from one replaced
    retry: false, // the current worker may be replaced once if it fails before Python is ready
    launchedAt: 0,
    loaded: false, // the current worker has said "ready"
    used: false, // the current interpreter has run learner code
    broken: false, // the worker caught a failure outside any case: renewed before the next one
    ready: "waiting", // whenReady()'s promise: "waiting", "resolved" or "rejected" (with readyError)
    readyError: null,
    idle: "waiting", // whenIdle(): "done" once settled
    seq: 0, // every case sent gets the next seq: what an interrupt names (see worker-core.js)
    runs: 0,
    run: null, // the run in progress (see startRun)
    asked: [], // runs asked while one runs, each waiting for the one before to end
  };
}

/** @returns {{state: object, effects: object[]}} the state after `event` (a new one: `state` is never changed) */
export function next(state, event) {
  const c = { s: copy(state), fx: [], at: event.at };
  handle(c, event);
  return { state: c.s, effects: c.fx };
}

const copy = (state) => ({ ...state, run: state.run && { ...state.run, sent: { ...state.run.sent }, outcomes: [...state.run.outcomes] } });

function handle(c, event) {
  const { s } = c;
  switch (event.type) {
    case "start":
      return begin(c, "loading");
    case "worker-message":
      if (event.worker === s.worker) onMessage(c, event.message);
      return;
    case "worker-error":
      if (event.worker !== s.worker) return; // replaced already
      return s.loaded ? lost(c, event.error) : failed(c, event.error);
    case "run":
      if (s.run) return void (s.asked = [...s.asked, event]);
      return startRun(c, event);
    case "stop":
      return stop(c);
    case "time-up":
      if (s.run?.case?.seq === event.seq) cut(c, "timeout");
      return;
    case "grace-over":
      // Not answered: no answer. Otherwise its answer is on the way, read once the page gets to it.
      if (s.run?.case?.seq === event.seq && event.answered < event.seq) settleCase(c, null, RESTART_REASONS.noAnswer);
      return;
    case "idle-due":
      if (!s.run && s.loaded && s.idle === "waiting") {
        s.idle = "done";
        c.fx.push({ type: "idle" });
      }
      return;
    case "callback-failed":
      if (s.run?.caller === event.caller) fail(c, event.error);
      return;
    default:
      throw new Error(`not a session event: ${event.type}`);
  }
}

function onMessage(c, message) {
  const { s } = c;
  const pending = s.run?.case;
  switch (message.type) {
    case "ready":
      s.loaded = true;
      resolveReady(c);
      armIdle(c);
      c.fx.push({ type: "state", state: "ready", detail: { version: message.version, loadMs: Math.round(c.at - s.launchedAt),
        snapshot: message.snapshot, keeping: message.keeping, phases: message.phases } });
      return wake(c);
    case "renewed":
      resolveReady(c);
      return wake(c);
    case "fatal":
      return failed(c, new Error(message.message));
    case "failed":
      s.broken = true;
      return;
    case "case-skipped":
      // Its interpreter broke before it, maybe in a case of an earlier run that ended without waiting for it.
      if (pending && message.seq === pending.seq) {
        s.broken = true;
        settleCase(c, null, SKIPPED);
      }
      return;
    case "case-done":
      if (pending && message.runId === s.run.id && message.index === pending.index) settleCase(c, message);
      return;
    default:
      return; // the Node runner's worker tells its runner more (node-worker.mjs); nothing of the session's
  }
}

// --- Python's worker -------------------------------------------------------------------------------------------

// start(): `chain`, whenReady()'s promise so far settles with the new one.
function begin(c, state, detail, chain = false) {
  c.fx.push(detail === undefined ? { type: "state", state } : { type: "state", state, detail });
  expectReady(c, chain);
  launch(c, true);
}

// `retry`: a worker that fails before Python is ready is replaced once, and only the second failure is told. A
// start fails for a reason that passes as often as for one that stays: a file of Pyodide's whose fetch failed
// (a phone network, a reload while the service worker was caching the site), a worker the machine was too busy
// to start.
function launch(c, retry) {
  const { s } = c;
  Object.assign(s, { worker: s.worker + 1, retry, launchedAt: c.at, used: false, loaded: false });
  c.fx.push({ type: "spawn", worker: s.worker, keepSnapshot: s.config.background });
}

function failed(c, error) {
  const { s } = c;
  if (s.retry) {
    c.fx.push({ type: "warn", message: `Python failed to start (${error.message}); trying once more` }, { type: "terminate" });
    return launch(c, false);
  }
  const waited = s.ready === "waiting";
  if (waited) {
    Object.assign(s, { ready: "rejected", readyError: error });
    c.fx.push({ type: "reject-ready", error });
  }
  c.fx.push({ type: "state", state: "error", detail: { message: error.message } });
  if (waited && s.run && s.run.phase !== "case") fail(c, error); // a run waiting for Python gets the failure too
}

// The worker failed or ended once Python was ready: the case in flight ends as an error, or a run waiting for this
// worker (a renew) gets the next one instead.
function lost(c, error) {
  if (c.s.run?.case) return settleCase(c, null, RESTART_REASONS.workerFailed, error);
  restart(c, RESTART_REASONS.workerFailed, true);
}

function restart(c, reason, chain = false) {
  c.fx.push({ type: "terminate" });
  begin(c, "restarting", { reason }, chain);
}

function renew(c) {
  Object.assign(c.s, { used: false, broken: false });
  expectReady(c, false);
  c.fx.push({ type: "post", message: { type: "renew" } });
}

function expectReady(c, chain) {
  Object.assign(c.s, { ready: "waiting", readyError: null });
  c.fx.push({ type: "expect-ready", chain });
}

function resolveReady(c) {
  if (c.s.ready !== "waiting") return;
  c.s.ready = "resolved";
  c.fx.push({ type: "resolve-ready" });
}

// Background work (the page's offline caching) starts once Python is ready and no run is in progress: it would
// compete with a run for the CPU. Not later: the service worker takes about half a second to cache the site, and a
// learner who leaves a second after Python is ready then finds it in control of the next page, whose scripts come
// with their compiled code from its cache (bench/run.py, the visit after one closed early). A run that starts
// meanwhile shares the CPU with that half second. A run that ends while Python loads arms nothing: "ready" does.
function armIdle(c) {
  if (!c.s.run && c.s.loaded && c.s.idle === "waiting") c.fx.push({ type: "arm-idle" });
}

// --- A run -------------------------------------------------------------------------------------------------------

// The run's `phase`: what it waits for. "ready", "renew-first", "renew-broken", "renew-crashed" and "restart" wait
// for whenReady()'s promise (Python, a renewed interpreter, a new worker); "case" for the case in flight (`case`:
// {index, seq, ended}, ended null or why it was cut short: "timeout" or "stopped").
const STOPPABLE = new Set(["ready", "renew-broken", "renew-crashed"]); // a stop ends these waits at once

function startRun(c, { spec, stopAt, caller }) {
  const { s } = c;
  const { source, sandbox, cases, timeLimitMs = s.config.timeLimitMs, budgetMs = Infinity } = spec;
  if (!(timeLimitMs > 0)) {
    c.fx.push({ type: "run-failed", caller, error: new Error(`no time limit for this run (got ${timeLimitMs})`) });
    return nextAsked(c);
  }
  s.runs += 1;
  // `ahead`: a page sends all of a run's cases at once: its worker then goes from one case to the next without
  // waiting for the page to read the answer and send the next (a round trip between threads, much of a fast case's
  // time on a busy machine). Not with a budget (whether a case may still start is decided here), not without an
  // interrupt (a case sent could not be called back), and not in the Node runner, whose worker waits a task after
  // each case to tell that case's failures (nextTask) and where a case sent ahead would overtake them.
  s.run = { id: s.runs, caller, source, sandbox, cases, timeLimitMs, budgetMs, stopAt,
    ahead: s.config.interrupt && !s.config.fresh && budgetMs === Infinity,
    phase: null, stopped: false, startedAt: null, index: 0, outcomes: [], case: null,
    sent: {} }; // the cases sent and not yet answered, index: seq
  waitFor(c, "ready");
}

function waitFor(c, phase) {
  const { s } = c;
  s.run.phase = phase;
  if (s.run.stopped && STOPPABLE.has(phase)) return finish(c);
  if (s.ready === "resolved") return resume(c);
  if (s.ready === "rejected") fail(c, s.readyError);
}

// whenReady()'s promise resolved: the run waiting for it goes on.
function wake(c) {
  const { run } = c.s;
  if (run && run.phase !== "case" && c.s.ready === "resolved") resume(c);
}

function resume(c) {
  const { s } = c;
  const { run, config } = s;
  switch (run.phase) {
    case "ready":
      // Fresh (the Node runner; a page that renews each run): an interpreter that ran code is renewed first, unless
      // the end of the run before could not.
      if (config.renewEachRun && s.used) {
        renew(c);
        return waitFor(c, "renew-first");
      }
      return beginCases(c);
    case "renew-first":
      return beginCases(c);
    case "renew-broken":
      return sendCase(c);
    case "renew-crashed":
      return loop(c);
    case "restart":
      c.fx.push({ type: "state", state: "running" });
      return loop(c);
  }
}

function beginCases(c) {
  if (!c.s.run.stopped) c.fx.push({ type: "state", state: "running" });
  c.s.run.startedAt = c.at;
  loop(c);
}

function loop(c) {
  const { s } = c;
  const { run } = s;
  for (;;) {
    if (run.stopped || run.index >= run.cases.length) return finish(c);
    // A case starts only while the budget, less what the run's cases took so far, still holds its whole limit.
    if (c.at - run.startedAt + run.timeLimitMs > run.budgetMs) {
      const outcome = notRun(run.budgetMs / 1000);
      run.outcomes.push(outcome);
      c.fx.push({ type: "case-done", caller: run.caller, index: run.index++, outcome });
      continue;
    }
    if (s.broken) {
      unsend(c);
      renew(c);
      return waitFor(c, "renew-broken");
    }
    return sendCase(c);
  }
}

function sendCase(c) {
  const { s } = c;
  const { run } = s;
  const index = run.index;
  if (!(index in run.sent)) {
    for (let i = index; i < (run.ahead ? run.cases.length : index + 1); i++) {
      run.sent[i] = ++s.seq;
      c.fx.push({ type: "post", message: { type: "run-case", runId: run.id, index: i, seq: s.seq, source: run.source,
        sandbox: run.sandbox, run: run.cases[i].run } });
    }
  }
  c.fx.push({ type: "case-started", caller: run.caller, index });
  s.used = true;
  run.phase = "case";
  run.case = { index, seq: run.sent[index], ended: null };
  c.fx.push({ type: "timer", seq: run.case.seq, ms: run.timeLimitMs, event: "time-up" });
}

// The case in flight is cut short: interrupted (given the grace to answer), or, with no interrupt, given up at once.
function cut(c, why) {
  const { run, config } = c.s;
  if (run.case.ended) return;
  run.case = { ...run.case, ended: why };
  if (!config.interrupt) return settleCase(c, null, why === "stopped" ? RESTART_REASONS.stopped : RESTART_REASONS.noInterrupt);
  const { seq } = run.case;
  c.fx.push({ type: "interrupt", seq }, { type: "timer", seq, ms: INTERRUPT_GRACE_MS, event: "grace-over" });
}

// The case in flight is over: `message`, the worker's case-done, or null when the worker never answered (`reason`
// says why, and `error` what failed), or did not run it (SKIPPED).
function settleCase(c, message, reason = null, error = null) {
  const { s } = c;
  const { run } = s;
  const { index, seq, ended } = run.case;
  c.fx.push({ type: "clear-timers", seq });
  run.case = null;
  delete run.sent[index];
  if (reason === SKIPPED) return loop(c); // sent again, to the renewed interpreter
  if (ended !== "stopped") {
    // Over the limit is a timeout however the case then ended, so both ways of stopping agree.
    const outcome = ended === "timeout" ? timeoutOutcome(message?.outcome.output, message?.outcome.stdout) : (message?.outcome ?? workerFailed(error));
    run.outcomes.push(outcome);
    c.fx.push({ type: "case-done", caller: run.caller, index, outcome });
    if (run.stopAt(outcome)) run.stopped = true;
  }
  run.index += 1;
  if (message === null || message.crashed) unsend(c);
  if (message === null) {
    restart(c, reason);
    return run.stopped ? finish(c) : waitFor(c, "restart"); // a stopped run's next run waits for the new worker
  }
  if (message.crashed) {
    // The worker answered, so it is sound: a new interpreter in it costs a fraction of a new worker (its
    // WebAssembly is compiled already), and nothing of the broken one survives either way.
    renew(c);
    return waitFor(c, "renew-crashed");
  }
  loop(c);
}

// The cases sent that are not to run after all (the run ends early, or their interpreter is replaced): the worker
// stops the one it may be running and starts none of the others.
function unsend(c) {
  const { run, config } = c.s;
  const seqs = Object.values(run.sent);
  if (config.interrupt && seqs.length) c.fx.push({ type: "interrupt", seq: Math.max(...seqs) });
  run.sent = {};
}

// Ends the run in progress early: the case in flight is cut short the way a timeout cuts it, and no more run.
function stop(c) {
  const { run } = c.s;
  if (!run) return; // between runs, nothing to stop
  run.stopped = true;
  if (run.case) cut(c, "stopped");
  if (c.s.run !== run) return; // cut ended it
  unsend(c);
  if (STOPPABLE.has(run.phase)) finish(c);
}

function finish(c) {
  const { s } = c;
  const { run, config } = s;
  unsend(c);
  s.run = null;
  armIdle(c);
  // The next run's interpreter is made now, while the caller reads these outcomes, not when that run starts.
  if (config.renewEachRun && s.used && s.loaded) renew(c);
  if (s.loaded) c.fx.push({ type: "state", state: "finished" }); // else "ready" comes when Python is back
  c.fx.push({ type: "run-done", caller: run.caller, outcomes: run.outcomes });
  nextAsked(c);
}

// The run cannot go on (Python could not start again, a callback threw): run() rejects.
function fail(c, error) {
  const { s } = c;
  const { run } = s;
  unsend(c);
  if (run.case) c.fx.push({ type: "clear-timers", seq: run.case.seq });
  s.run = null;
  armIdle(c);
  c.fx.push({ type: "run-failed", caller: run.caller, error });
  nextAsked(c);
}

function nextAsked(c) {
  const [first, ...rest] = c.s.asked;
  if (!first) return;
  c.s.asked = rest;
  startRun(c, first);
}
