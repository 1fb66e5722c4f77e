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

import { notRun, timeoutOutcome, workerFailed } from "./outcomes.js";

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
const SKIPPED = "skipped"; // runOne's reason for a case the worker will not run (not a restart)

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
 * The run spec (loopcraft/cases.py run_spec, the case's part the worker runs) of a call of `entry` with the keyword
 * arguments `args`, plain JSON data: what a page runs of its own (a lesson's live block, the lab's grid, the
 * learner's scenario). Their value text is their JSON, keys in the order given.
 */
export const keywordCall = (entry, args) => ({
  entry, args: JSON.stringify(args), call: null, setup: null, stdin: null, call_twice: false, keep_stdout: false,
});

// timeLimitMs: the limit of a case when a run names none (the exercise's time_limit_seconds; no default here).
export function createSession({ spawn, timeLimitMs: defaultTimeLimitMs, onState = () => {}, useInterrupt = canInterrupt(), background = true, fresh = false, renewEachRun = fresh }) {
  let worker = null;
  let ready = null; // a promise settled when the current worker's Python is loaded
  let settle = null; // {resolve, reject} of `ready`
  let used = false; // the current interpreter has run learner code
  let loaded = false; // the current worker has said "ready" (a run stopped while Python loads ends before that)
  let broken = false; // the worker caught a failure outside any case: renewed before the next one
  let pending = null; // {runId, index, seq, resolve, cut} for the case in flight
  let stopRun = null; // ends the run in progress early (see stop())
  let runCounter = 0;
  let seqCounter = 0; // every case sent gets the next seq: what an interrupt names (see worker-core.js)
  let busy = false;
  let idleTimer = null;
  let idle;
  const whenIdle = new Promise((resolve) => (idle = resolve));
  const shared = useInterrupt ? new SharedArrayBuffer(8) : null;
  // The seq of the last case interrupted: every case up to it is to stop, or not to start. Only ever raised.
  const interruptBuffer = shared && new Int32Array(shared, 0, 1);
  const interrupt = (seq) => Atomics.store(interruptBuffer, 0, Math.max(seq, Atomics.load(interruptBuffer, 0)));
  // The seq of the last case the worker answered, as it answers: a busy page may not have read an answer yet when
  // the grace after an interrupt runs out, and that worker must not be taken for stuck.
  const answered = shared && new Int32Array(shared, 4, 1);

  function start(state, detail) {
    onState(state, detail);
    expectReady();
    launch(true);
  }

  // `retry`: a worker that fails before Python is ready is replaced once, and only the second failure is told. A
  // start fails for a reason that passes as often as for one that stays: a file of Pyodide's whose fetch failed
  // (a phone network, a reload while the service worker was caching the site), a worker the machine was too busy
  // to start.
  function launch(retry) {
    const started = performance.now();
    used = false;
    loaded = false;
    const current = (worker = spawn());
    const failed = (error) => {
      if (retry) {
        console.warn(`Python failed to start (${error.message}); trying once more`);
        current.terminate();
        return launch(false);
      }
      settle.reject(error);
      onState("error", { message: error.message });
    };
    current.listen(
      (message) => {
        if (worker !== current) return; // replaced already
        if (message.type === "ready") {
          loaded = true;
          settle.resolve();
          armIdle();
          onState("ready", { version: message.version, loadMs: Math.round(performance.now() - started), snapshot: message.snapshot, keeping: message.keeping, phases: message.phases });
        } else if (message.type === "renewed") {
          settle.resolve();
        } else if (message.type === "fatal") {
          failed(new Error(message.message));
        } else if (message.type === "failed") {
          broken = true;
        } else if (message.type === "case-skipped" && pending && message.seq === pending.seq) {
          // Its interpreter broke before it, maybe in a case of an earlier run that ended without waiting for it.
          broken = true;
          pending.resolve(null, SKIPPED);
        } else if (message.type === "case-done" && pending && message.runId === pending.runId && message.index === pending.index) {
          pending.resolve(message);
        }
      },
      (error) => {
        if (worker !== current) return; // replaced already
        if (loaded) return lost(error);
        failed(error);
      },
    );
    // `current`, not `worker`: a worker that failed as it was listened to (its early error) is replaced already,
    // and its replacement has had its own "init".
    current.post({ type: "init", interruptBuffer, answered, keepSnapshot: background });
  }

  // Background work (the page's offline caching) starts once Python is ready and no run is in progress: it would
  // compete with a run for the CPU. Not later: the service worker takes about half a second to cache the site, and a
  // learner who leaves a second after Python is ready then finds it in control of the next page, whose scripts come
  // with their compiled code from its cache (bench/run.py, the visit after one closed early). A run that starts
  // meanwhile shares the CPU with that half second.
  // A run that ends while Python loads (stopped before it was ready, or after its worker was replaced) arms nothing:
  // the "ready" to come does.
  function armIdle() {
    clearTimeout(idleTimer);
    if (!busy && loaded) idleTimer = setTimeout(idle);
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
  // `reason` SKIPPED: the worker did not run the case ("case-skipped"): the run sends it again once renewed.
  function runOne(runId, index, seq, timeLimitMs) {
    return new Promise((resolve) => {
      let ended = null;
      const timers = [];
      const finish = (message, reason = null, error = null) => {
        timers.forEach(clearTimeout);
        pending = null;
        resolve({ message, ended, reason, error });
      };
      const cut = (why) => {
        if (ended) return;
        ended = why;
        if (!interruptBuffer) return finish(null, why === "stopped" ? RESTART_REASONS.stopped : RESTART_REASONS.noInterrupt);
        interrupt(seq);
        timers.push(setTimeout(() => {
          // Not answered: no answer. Otherwise its answer is on the way, read once the page gets to it.
          if (Atomics.load(answered, 0) < seq) finish(null, RESTART_REASONS.noAnswer);
        }, INTERRUPT_GRACE_MS));
      };
      pending = { runId, index, seq, resolve: finish, cut };
      timers.push(setTimeout(() => cut("timeout"), timeLimitMs));
    });
  }

  // A run asked while one runs waits for it to end (every caller runs one at a time; two at once shared the case in
  // flight, and the first never ended).
  let lastRun = Promise.resolve();
  function run(spec, callbacks) {
    const mine = lastRun.then(() => runNow(spec, callbacks));
    lastRun = mine.catch(() => {});
    return mine;
  }

  async function runNow(
    { source, sandbox, cases, timeLimitMs = defaultTimeLimitMs, budgetMs = Infinity },
    { onCaseStart = () => {}, onCaseDone = () => {}, stopAt = () => false } = {},
  ) {
    if (!(timeLimitMs > 0)) throw new Error(`no time limit for this run (got ${timeLimitMs})`);
    const runId = ++runCounter;
    const outcomes = [];
    // The cases sent and not yet answered (index: seq). A page sends all of a run's cases at once: its worker then
    // goes from one case to the next without waiting for the page to read the answer and send the next (a round
    // trip between threads, much of a fast case's time on a busy machine). Not with a budget (whether a case may
    // still start is decided here), not without an interrupt (a case sent could not be called back), and not in
    // the Node runner, whose worker waits a task after each case to tell that case's failures (nextTask) and where
    // a case sent ahead would overtake them.
    const sent = new Map();
    const ahead = interruptBuffer !== null && !fresh && budgetMs === Infinity;
    const send = (from) => {
      for (let index = from; index < (ahead ? cases.length : from + 1); index++) {
        const seq = ++seqCounter;
        sent.set(index, seq);
        worker.post({ type: "run-case", runId, index, seq, source, sandbox, run: cases[index].run });
      }
    };
    // The cases sent that are not to run after all (the run ends early, or their interpreter is replaced): the worker
    // stops the one it may be running and starts none of the others.
    const unsend = () => {
      if (interruptBuffer && sent.size) interrupt(Math.max(...sent.values()));
      sent.clear();
    };
    let stopped = false;
    let wake;
    const stopping = new Promise((resolve) => (wake = resolve));
    // Waits for `promise`, or less when the run is stopped meanwhile.
    const unlessStopped = (promise) => Promise.race([promise, stopping]);
    stopRun = () => {
      stopped = true;
      wake();
      pending?.cut("stopped");
      unsend();
    };
    busy = true;
    clearTimeout(idleTimer);
    try {
      await unlessStopped(ready);
      if (renewEachRun && used && !stopped) await renew();
      if (!stopped) onState("running");
      const started = performance.now();
      for (let index = 0; index < cases.length; ) {
        if (stopped) break;
        if (performance.now() - started + timeLimitMs > budgetMs) {
          const outcome = notRun(budgetMs / 1000);
          outcomes.push(outcome);
          onCaseDone(index++, outcome);
          continue;
        }
        if (broken) {
          unsend();
          await unlessStopped(renew());
          if (stopped) break;
        }
        if (!sent.has(index)) send(index);
        onCaseStart(index);
        used = true;
        const { message, ended, reason, error } = await runOne(runId, index, sent.get(index), timeLimitMs);
        sent.delete(index);
        if (reason === SKIPPED) continue; // sent again, to the renewed interpreter
        if (ended !== "stopped") {
          // Over the limit is a timeout however the case then ended, so both ways of stopping agree.
          const outcome = ended === "timeout" ? timeoutOutcome(message?.outcome.output, message?.outcome.stdout) : (message?.outcome ?? workerFailed(error));
          outcomes.push(outcome);
          onCaseDone(index, outcome);
          if (stopAt(outcome)) stopped = true;
        }
        index++;
        if (message === null || message.crashed) unsend();
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
      unsend();
      busy = false;
      stopRun = null;
      armIdle();
    }
    // The next run's interpreter is made now, while the caller reads these outcomes, not when that run starts.
    if (renewEachRun && used && loaded) renew();
    if (loaded) onState("finished"); // else "ready" comes when Python is back
    return outcomes;
  }

  // Ends the run in progress early; does nothing between runs.
  function stop() {
    stopRun?.();
  }

  start("loading");
  // whenIdle: settled once Python is ready and no run is in progress.
  return { run, stop, whenReady: () => ready, whenIdle: () => whenIdle };
}
