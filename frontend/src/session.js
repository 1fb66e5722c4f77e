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
// `fresh` (the Node runner) and `renewEachRun` (the page): every run starts in a new interpreter. As a run ends
// (or before the next, if it could not then), a worker that has run any case is sent "renew", and the next run
// waits for "renewed", so the swap never counts against a case's time limit. A renew resets the interpreter in
// place where it can (reset.js: about 10 ms), so a page's second Run sees nothing its first left (a file, a
// module, an environment variable), as the grader's run would not.
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
// States reported to onState(state, detail): "loading"; "ready" (Python has loaded: {version, loadMs, snapshot, keeping,
// phases}, as the worker said; snapshot: "restored", "missing" or undefined);
// "running"; "finished" (a run is over); "restarting" ({reason}: one of RESTART_REASONS); "error" ({message}).

import { carryOut } from "./effects.js";
import { initialState, next, RESTART_REASONS } from "./session-state.js";

export { RESTART_REASONS };

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

/**
 * The run spec (loopcraft/course/cases.py run_spec, the case's part the worker runs) of a call of `entry` with the keyword
 * arguments `args`, plain JSON data: what a page runs of its own (a lesson's live block, the lab's grid, the
 * learner's scenario). Their value text is their JSON, keys in the order given.
 */
export const keywordCall = (entry, args) => ({
  entry, args: JSON.stringify(args), call: null, setup: null, stdin: null, call_twice: false, keep_stdout: false,
});

// timeLimitMs: the limit of a case when a run names none (the exercise's time_limit_seconds; no default here).
// Every decision is session-state.js's; this carries its effects out: the worker, the timers, the promises.
export function createSession({ spawn, timeLimitMs, onState = () => {}, useInterrupt = canInterrupt(), background = true, fresh = false, renewEachRun = fresh }) {
  const shared = useInterrupt ? new SharedArrayBuffer(8) : null;
  // The seq of the last case interrupted: every case up to it is to stop, or not to start. Only ever raised.
  const interruptBuffer = shared && new Int32Array(shared, 0, 1);
  // The seq of the last case the worker answered, as it answers: a busy page may not have read an answer yet when
  // the grace after an interrupt runs out, and that worker must not be taken for stuck.
  const answered = shared && new Int32Array(shared, 4, 1);
  let worker = null;
  const timers = new Map(); // seq: the timeouts of that case
  let ready = null; // a promise settled when the current worker's Python is loaded
  let settle = null; // {resolve, reject} of `ready`
  let idle;
  const whenIdle = new Promise((resolve) => (idle = resolve));
  // A callback of the run's that throws ends that run with its error, as anything else that ends it.
  const callBack = (effect, call) => {
    try {
      call();
    } catch (error) {
      dispatch({ type: "callback-failed", caller: effect.caller, error });
    }
  };

  const perform = {
    state: ({ state, detail }) => onState(state, detail),
    spawn: ({ worker: number, keepSnapshot }) => {
      const current = (worker = spawn());
      current.listen(
        (message) => dispatch({ type: "worker-message", worker: number, message }),
        (error) => dispatch({ type: "worker-error", worker: number, error }),
      );
      current.post({ type: "init", interruptBuffer, answered, keepSnapshot });
    },
    terminate: () => worker.terminate(),
    post: ({ message }) => worker.post(message),
    interrupt: ({ seq }) => Atomics.store(interruptBuffer, 0, Math.max(seq, Atomics.load(interruptBuffer, 0))),
    timer: ({ seq, ms, event }) => {
      const timer = setTimeout(() => dispatch({ type: event, seq, answered: answered ? Atomics.load(answered, 0) : 0 }), ms);
      timers.set(seq, [...(timers.get(seq) ?? []), timer]);
    },
    "clear-timers": ({ seq }) => {
      for (const timer of timers.get(seq) ?? []) clearTimeout(timer);
      timers.delete(seq);
    },
    "arm-idle": () => setTimeout(() => dispatch({ type: "idle-due" })),
    idle: () => idle(),
    "expect-ready": ({ chain }) => {
      const before = settle;
      ready = new Promise((resolve, reject) => (settle = { resolve, reject }));
      ready.catch(() => {}); // reported by onState("error"); a run waiting for Python gets the failure too
      if (chain) ready.then(before.resolve, before.reject);
    },
    "resolve-ready": () => settle.resolve(),
    "reject-ready": ({ error }) => settle.reject(error),
    warn: ({ message }) => console.warn(message),
    "case-started": (effect) => callBack(effect, () => effect.caller.onCaseStart(effect.index)),
    "case-done": (effect) => callBack(effect, () => effect.caller.onCaseDone(effect.index, effect.outcome)),
    "run-done": ({ caller, outcomes }) => caller.resolve(outcomes),
    "run-failed": ({ caller, error }) => caller.reject(error),
  };
  const initial = initialState({ timeLimitMs, interrupt: useInterrupt, background, fresh, renewEachRun });
  const { dispatch } = carryOut(next, initial, perform, (event) => ({ ...event, at: performance.now() }));

  // Resolves with the outcomes of the cases that ran to their end; a run asked while one runs waits for it to end.
  function run(spec, { onCaseStart = () => {}, onCaseDone = () => {}, stopAt = () => false } = {}) {
    return new Promise((resolve, reject) => dispatch({ type: "run", spec, stopAt, caller: { resolve, reject, onCaseStart, onCaseDone } }));
  }

  dispatch({ type: "start" });
  // stop(): ends the run in progress early; does nothing between runs. whenIdle: settled once Python is ready and no
  // run is in progress.
  return { run, stop: () => dispatch({ type: "stop" }), whenReady: () => ready, whenIdle: () => whenIdle };
}
