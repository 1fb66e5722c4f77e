// The driver side of the grading protocol (see worker-core.js): owns the worker, times every case,
// and gets Python back when a case runs out of time. Used by the page and by the Node runner.
//
// A case over its time limit is stopped with Pyodide's interrupt buffer when SharedArrayBuffer is
// available (a cross-origin isolated page, or Node): Python raises KeyboardInterrupt within
// milliseconds. Otherwise, or when the learner's code swallows the interrupt, the worker is
// terminated and a new one started (Pyodide loads again, about two seconds).
//
// A worker that finds no memory snapshot of Python (a first visit) makes one as its Python starts, before any
// learner code runs, and keeps it for the next start to restore instead of booting Python (see worker-core.js).
// `background: false` turns that off, for a page that must stay quiet (tests, see page-session.js).
//
// `fresh` (the Node runner): every run starts in a new interpreter. Before a run, a worker that has run any
// case is sent "renew" and the run waits for "renewed", so the swap never counts against a case's time limit.
//
// A case that broke its interpreter (or tampered with the grader) but answered is followed by a renew, on a page
// too: a new interpreter in the same worker, restored from the snapshot (or booted, when there is none yet), and
// nothing of the broken one survives; so is a failure the worker caught outside any case ("failed"). Only a worker
// that never answered, or that failed or ended once ready (a Node worker thread that died), is replaced: the case
// in flight then ends as an error, and the run goes on in the new one.
//
// A page's run can end early: `stop()` cuts the case in flight short the way a timeout does (an interrupt, or a new
// worker when there is none or it goes unanswered) and runs no more cases; `stopAt(outcome)`, given to run(), ends
// the run after the first case it is true of (a page stops at a timeout: a loop costs one time limit, not one a case).
// Either way run() resolves with the outcomes of the cases that ran to the end, fewer than asked.
//
// `budgetMs` (the Node runner's, per submission), given to run(): a case starts only while that much time, less what
// the run's cases took so far, still holds its whole limit; the cases after are not run, each an error saying why.
//
// States reported to onState(state, detail): "loading"; "ready" (Python has loaded: {version, loadMs, snapshot}, as
// the worker said: "restored", "missing" or undefined);
// "running"; "finished" (a run is over); "restarting" ({reason}: one of RESTART_REASONS); "error" ({message}).

import { notRun, timeoutOutcome, workerFailed } from "./outcomes.js";

const SIGINT = 2;
// Generous: a busy machine can be slow to turn the interrupt into an answer; waiting costs only time, while a
// restart costs a Pyodide load. Learner code that catches the KeyboardInterrupt and loops on uses it all up.
const INTERRUPT_GRACE_MS = 2500;
// Why Python was restarted (onState("restarting", {reason})), for the page to say and tests to check.
export const RESTART_REASONS = {
  noInterrupt: "no-interrupt", // a case ran out of time where Python cannot be interrupted (no SharedArrayBuffer)
  noAnswer: "no-answer", // interrupted, the case did not answer within the grace (it caught the interrupt)
  stopped: "stopped", // a run was stopped where Python cannot be interrupted
  workerFailed: "worker-failed", // the worker failed or ended after Python was ready
};
// Long enough that a learner who only glances at a page leaves before it starts: the service worker's caching of
// the site (every file fetched and hashed) would otherwise compete with the next page's Python start.
const IDLE_MS = 3000;

// `early`: a worker the page spawned before its scripts loaded (see challenge.html), used for the first start.
export function browserSpawner(workerUrl, early = null) {
  return (role = "session") => {
    let worker;
    if (role === "session" && early) [worker, early] = [early, null];
    else worker = new Worker(workerUrl, { type: "module", name: role });
    return {
      post: (message) => worker.postMessage(message),
      listen: (onMessage, onError) => {
        worker.onmessage = (event) => onMessage(event.data);
        worker.onerror = (event) => onError(new Error(event.message || "the Python worker failed to start"));
        if (worker.earlyError) onError(new Error(worker.earlyError));
      },
      terminate: () => worker.terminate(),
    };
  };
}

function canInterrupt() {
  return typeof SharedArrayBuffer !== "undefined" && globalThis.crossOriginIsolated !== false;
}

// timeLimitMs: the limit of a case when a run names none (the exercise's time_limit_seconds; no default here).
export function createSession({ spawn, timeLimitMs: defaultTimeLimitMs, onState = () => {}, useInterrupt = canInterrupt(), background = true, fresh = false }) {
  let worker = null;
  let ready = null; // a promise settled when the current worker's Python is loaded
  let settle = null; // {resolve, reject} of `ready`
  let used = false; // the current interpreter has run learner code
  let loaded = false; // the current worker has said "ready" (a run stopped while Python loads ends before that)
  let broken = false; // the worker caught a failure outside any case: renewed before the next one
  let pending = null; // {runId, index, resolve, cut} for the case in flight
  let stopRun = null; // ends the run in progress early (see stop())
  let runCounter = 0;
  let busy = false;
  let idleTimer = null;
  let idle;
  const whenIdle = new Promise((resolve) => (idle = resolve));
  const shared = useInterrupt ? new SharedArrayBuffer(8) : null;
  const interruptBuffer = shared && new Int32Array(shared, 0, 1);
  // Counts the cases the worker has answered, as it answers them: a busy page may not have read an answer yet
  // when the grace after an interrupt runs out, and that worker must not be taken for stuck.
  const answered = shared && new Int32Array(shared, 4, 1);

  function start(state, detail) {
    onState(state, detail);
    const started = performance.now();
    used = false;
    loaded = false;
    expectReady();
    // An interrupt left over from the worker being replaced would stop the new one's start-up.
    if (interruptBuffer) Atomics.store(interruptBuffer, 0, 0);
    const current = (worker = spawn());
    current.listen(
      (message) => {
        if (message.type === "ready") {
          loaded = true;
          settle.resolve();
          armIdle();
          onState("ready", { version: message.version, loadMs: Math.round(performance.now() - started), snapshot: message.snapshot, keeping: message.keeping });
        } else if (message.type === "renewed") {
          settle.resolve();
        } else if (message.type === "fatal") {
          settle.reject(new Error(message.message));
          onState("error", { message: message.message });
        } else if (message.type === "failed") {
          broken = true;
        } else if (message.type === "case-done" && pending && message.runId === pending.runId && message.index === pending.index) {
          pending.resolve(message);
        }
      },
      (error) => {
        if (worker !== current) return; // replaced already
        if (loaded) return lost(error);
        settle.reject(error);
        onState("error", { message: error.message });
      },
    );
    worker.post({ type: "init", interruptBuffer, answered, keepSnapshot: background });
  }

  // Background work (the page's offline caching) waits for a few seconds without a run: it would compete with the
  // learner's Python for the CPU and the network.
  function armIdle() {
    clearTimeout(idleTimer);
    if (!busy) idleTimer = setTimeout(idle, IDLE_MS);
  }

  function renew() {
    used = false;
    broken = false;
    expectReady();
    worker.post({ type: "renew" });
    return ready;
  }

  function expectReady() {
    ready = new Promise((resolve, reject) => (settle = { resolve, reject }));
    ready.catch(() => {}); // reported by onState("error"); a run waiting for Python gets the failure too
  }

  function restart(reason) {
    worker.terminate();
    start("restarting", { reason });
  }

  function lost(error) {
    if (pending) return pending.resolve(null, RESTART_REASONS.workerFailed, error);
    const waiting = settle; // a run may be waiting for this worker (a renew): it gets the next one instead
    restart(RESTART_REASONS.workerFailed);
    ready.then(waiting.resolve, waiting.reject);
  }

  // Resolves with {message, ended, reason, error}: message is the worker's case-done, or null when the worker never
  // answered (no interrupt available, learner code that ignored it, or a worker that failed: `reason` says which, and
  // `error` what failed); ended is null, or why the case was cut short: "timeout" (over its limit) or "stopped".
  function runOne(runId, index, timeLimitMs, request) {
    return new Promise((resolve) => {
      let ended = null;
      const timers = [];
      const finish = (message, reason = null, error = null) => {
        timers.forEach(clearTimeout);
        pending = null;
        resolve({ message, ended, reason, error });
      };
      const answeredBefore = answered && Atomics.load(answered, 0);
      const cut = (why) => {
        if (ended) return;
        ended = why;
        if (!interruptBuffer) return finish(null, why === "stopped" ? RESTART_REASONS.stopped : RESTART_REASONS.noInterrupt);
        Atomics.store(interruptBuffer, 0, SIGINT);
        timers.push(setTimeout(() => {
          // Unchanged: no answer. Otherwise its answer is on the way, read once the page gets to it.
          if (Atomics.load(answered, 0) === answeredBefore) finish(null, RESTART_REASONS.noAnswer);
        }, INTERRUPT_GRACE_MS));
      };
      pending = { runId, index, resolve: finish, cut };
      timers.push(setTimeout(() => cut("timeout"), timeLimitMs));
      worker.post({ type: "run-case", runId, index, ...request });
    });
  }

  async function run(
    { source, sandbox, entry, cases, timeLimitMs = defaultTimeLimitMs, budgetMs = Infinity },
    { onCaseStart = () => {}, onCaseDone = () => {}, stopAt = () => false } = {},
  ) {
    if (!(timeLimitMs > 0)) throw new Error(`no time limit for this run (got ${timeLimitMs})`);
    const runId = ++runCounter;
    const outcomes = [];
    let stopped = false;
    let wake;
    const stopping = new Promise((resolve) => (wake = resolve));
    // Waits for `promise`, or less when the run is stopped meanwhile.
    const unlessStopped = (promise) => Promise.race([promise, stopping]);
    stopRun = () => {
      stopped = true;
      wake();
      pending?.cut("stopped");
    };
    busy = true;
    clearTimeout(idleTimer);
    try {
      await unlessStopped(ready);
      if (fresh && used && !stopped) await renew();
      if (!stopped) onState("running");
      const started = performance.now();
      for (const [index, { args }] of cases.entries()) {
        if (stopped) break;
        if (performance.now() - started + timeLimitMs > budgetMs) {
          const outcome = notRun(budgetMs / 1000);
          outcomes.push(outcome);
          onCaseDone(index, outcome);
          continue;
        }
        if (broken) {
          await unlessStopped(renew());
          if (stopped) break;
        }
        onCaseStart(index);
        used = true;
        const { message, ended, reason, error } = await runOne(runId, index, timeLimitMs, { source, sandbox, entry, args });
        if (ended !== "stopped") {
          // Over the limit is a timeout however the case then ended, so both ways of stopping agree.
          const outcome = ended === "timeout" ? timeoutOutcome(message?.outcome.output) : (message?.outcome ?? workerFailed(error));
          outcomes.push(outcome);
          onCaseDone(index, outcome);
          if (stopAt(outcome)) stopped = true;
        }
        if (message === null) {
          restart(reason);
          if (stopped) break; // the next run waits for the new worker
          await ready;
          onState("running");
        } else if (message.crashed) {
          // The worker answered, so it is sound: a new interpreter in it costs a fraction of a new worker (its
          // WebAssembly is compiled already), and nothing of the broken one survives either way.
          await unlessStopped(renew());
        }
      }
    } finally {
      busy = false;
      stopRun = null;
      armIdle();
    }
    if (loaded) onState("finished"); // else "ready" comes when Python is back
    return outcomes;
  }

  // Ends the run in progress early; does nothing between runs.
  function stop() {
    stopRun?.();
  }

  start("loading");
  // whenIdle: settled once Python is ready and no run has been in progress for a moment.
  return { run, stop, whenReady: () => ready, whenIdle: () => whenIdle };
}
