// The worker's loop (worker-core.js serveWorker), as a pure reducer: next(state, event) -> {state, effects}. It
// decides what the worker does with each message of the driver's (the protocol at the top of worker-core.js) and
// with what its interpreter hands back; serveWorker carries the effects out on Pyodide and the driver's channel.
// tests/js/worker-loop.test.mjs walks every sequence here under node --test.
import * as outcomes from "./outcomes.js";

/**
 * The events. The driver's messages, as they came: {type: "message", message}. What the effects hand back:
 *   {type: "start"}                                    the worker is made
 *   {type: "served", reply, why, version, restored, keeping, phases}   the interpreter is up (see "serve")
 *   {type: "serve-failed", error}                      it could not start
 *   {type: "prepared", error}                          it is ready for cases (error null), or could not be made so
 *   {type: "reset-done", refused}                      null, or why the interpreter could not be reset in place
 *   {type: "case-returned", text} | {type: "case-returned", error}    what the grader's run_case returned, or threw
 *   {type: "task-done"}                                the task after a case is over (nextTask)
 *   {type: "uncaught", error}                          something failed outside any call
 *   {type: "snapshot-made", saved}                     bytes kept ("make-snapshot"), 0 when it failed
 * Each is stamped by serveWorker with `interrupted`: the interrupt buffer's value as it is handled (0 without one).
 *
 * The effects:
 *   {type: "post", message}              to the driver
 *   {type: "want-snapshot", keep}        whether a first start keeps its snapshot (init's keepSnapshot)
 *   {type: "boot"}                       start another interpreter, dropping the one there was
 *   {type: "serve", reply, why}          once it is up, the event served (or serve-failed); reply "ready" also reads
 *                                        Python's version
 *   {type: "prepare"}                    set the interpreter up for cases (at once: no message is read before), then
 *                                        the event prepared
 *   {type: "reset"}                      reset the interpreter in place (reset.js), then the event reset-done
 *   {type: "run", source, sandbox, run}  run a case, then the event case-returned
 *   {type: "wait-task"}                  the event task-done once the task is over
 *   {type: "answered", seq}              raise the shared count of the last case answered to `seq`
 *   {type: "make-snapshot"}              make and keep a snapshot, then the event snapshot-made
 */

/**
 * resets: a renew resets in place where it can; waitsTask: the worker waits a task after each case (nextTask);
 * snapshots: a store of snapshots; tellsSnapshot: "ready" says where the snapshot came from (a page's, not the Node
 * runner's, which makes its own at start); eager: Python boots before "init".
 */
export function initialState({ resets = false, waitsTask = false, snapshots = false, tellsSnapshot = false, eager = false }) {
  return {
    config: { resets, waitsTask, snapshots, tellsSnapshot, eager },
    interruptBuffer: null, // init's: the shared views, carried for serveWorker (null without SharedArrayBuffer)
    answered: null,
    booting: false, // an interpreter has been asked for (a first "init" boots none when the worker did already)
    prepared: false, // the interpreter is set up for cases: until then a case sent waits
    pristine: false, // an image of the interpreter is kept that a reset returns it to
    // What failed outside any call since the interpreter last answered: it may be in any state now. `failed`, since
    // a failure can come with no reason at all (a promise rejected with null).
    failed: false,
    failure: null,
    // The interpreter broke, and no case runs in it until "renew", which makes another one when it "crashed" (a case
    // or something outside any case failed in JavaScript, which may have left Pyodide's own state half-changed) and
    // resets this one in place when it was "tampered" with (the grader saw its own environment changed: that is all
    // in Python's memory, which a reset puts back whole, as it does after every submission).
    spoiled: null,
    inCase: false, // from a case's start until it answers
    running: 0, // the seq of the case Python runs, 0 between cases: what the interrupt buffer's view reads
    queue: [], // the cases sent and not yet started: one case at a time, in the order sent
    case: null, // the case in flight: {message, outcome, broke}
  };
}

export function next(state, event) {
  const c = { s: { ...state }, fx: [], interrupted: event.interrupted ?? 0 };
  handle(c, event);
  return { state: c.s, effects: c.fx };
}

const post = (c, message) => c.fx.push({ type: "post", message });

function handle(c, event) {
  const { s } = c;
  switch (event.type) {
    case "start":
      if (s.config.eager) boot(c);
      return;
    case "message":
      return onMessage(c, event.message);
    case "served":
      // The driver is told first: the cases it then sends wait for the set-up, which follows at once.
      post(c, event.reply === "ready"
        ? { type: "ready", version: event.version, snapshot: s.config.tellsSnapshot ? event.restored || "missing" : undefined,
          keeping: event.keeping, phases: event.phases }
        : { type: "renewed", how: "started", why: event.why });
      return c.fx.push({ type: "prepare" });
    case "prepared":
      if (event.error !== null) return post(c, { type: "fatal", message: reason(event.error) });
      Object.assign(s, { prepared: true, pristine: s.config.resets });
      return startNext(c);
    case "serve-failed":
      return post(c, { type: "fatal", message: reason(event.error) });
    case "reset-done":
      return event.refused === null ? post(c, { type: "renewed", how: "reset" }) : rebuild(c, event.refused);
    case "case-returned":
      return returned(c, event);
    case "task-done":
      return answer(c);
    case "uncaught":
      return uncaught(c, event.error);
    case "snapshot-made":
      return post(c, { type: "snapshot-done", saved: event.saved });
    default:
      throw new Error(`not a worker event: ${event.type}`);
  }
}

function onMessage(c, message) {
  const { s } = c;
  switch (message.type) {
    case "init":
      Object.assign(s, { interruptBuffer: message.interruptBuffer ?? null, answered: message.answered ?? null });
      c.fx.push({ type: "want-snapshot", keep: message.keepSnapshot ?? false });
      if (!s.booting) boot(c);
      return c.fx.push({ type: "serve", reply: "ready" });
    case "run-case":
      s.queue = [...s.queue, message];
      return startNext(c);
    case "renew":
      return renew(c);
    case "make-snapshot":
      if (s.config.snapshots) c.fx.push({ type: "make-snapshot" });
      return;
    default:
      return;
  }
}

function boot(c) {
  Object.assign(c.s, { booting: true, prepared: false, pristine: false });
  c.fx.push({ type: "boot" });
}

// Reset in place (reset.js) unless the interpreter broke or the reset cannot vouch for it; otherwise the old
// interpreter is dropped whole (JavaScript's garbage collector frees its memory) and another one started.
function renew(c) {
  const { s } = c;
  const broke = s.spoiled === "crashed" || s.failed;
  Object.assign(s, { failed: false, failure: null, spoiled: null });
  if (broke) return rebuild(c, "it broke");
  if (!s.pristine) return rebuild(c, "none was kept");
  c.fx.push({ type: "reset" });
}

function rebuild(c, why) {
  boot(c);
  c.fx.push({ type: "serve", reply: "renewed", why });
}

function startNext(c) {
  const { s } = c;
  while (s.prepared && !s.case && s.queue.length) {
    const [message, ...rest] = s.queue;
    s.queue = rest;
    if (s.interruptBuffer && c.interrupted >= message.seq) continue; // the driver has given up on it
    if (s.spoiled) {
      post(c, { type: "case-skipped", runId: message.runId, index: message.index, seq: message.seq }); // sent again once renewed
      continue;
    }
    Object.assign(s, { inCase: true, running: message.seq, case: { message, outcome: null, broke: null } });
    c.fx.push({ type: "run", source: message.source, sandbox: message.sandbox, run: message.run });
  }
}

const isText = (v) => typeof v === "string";
function isOutcome(o) {
  return o !== null && typeof o === "object" && isText(o.output) && Array.isArray(o.trace)
    && ((o.kind === "value" && isText(o.value)) || (o.kind === "error" && isText(o.error)));
}

function returned(c, event) {
  const { s } = c;
  let outcome;
  let broke = null; // what spoiled the interpreter, if anything did
  try {
    if ("error" in event) throw event.error;
    const { restart, ...rest } = JSON.parse(event.text);
    if (!isOutcome(rest)) throw new Error("the grader returned a malformed result (was it tampered with?)");
    if (restart) broke = "tampered"; // the grader saw its environment changed
    outcome = rest;
  } catch (error) {
    // Only the interpreter itself failing lands here (learner exceptions are outcomes already),
    // e.g. the JavaScript stack overflowing under very deep recursion; this Pyodide is unusable now.
    broke = "crashed";
    outcome = outcomes.crashed(error);
  }
  Object.assign(s, { running: 0, case: { ...s.case, outcome, broke } });
  // Whatever the case left to fail once it returned (a rejected promise) fails before it answers.
  if (s.config.waitsTask) return c.fx.push({ type: "wait-task" });
  answer(c);
}

function answer(c) {
  const { s } = c;
  let { message, outcome, broke } = s.case;
  s.inCase = false;
  if (s.failed) {
    broke = "crashed";
    outcome = outcomes.crashed(s.failure);
    Object.assign(s, { failed: false, failure: null });
  }
  Object.assign(s, { spoiled: broke, case: null });
  c.fx.push({ type: "answered", seq: message.seq });
  post(c, { type: "case-done", runId: message.runId, index: message.index, outcome, crashed: broke !== null });
  startNext(c);
}

// During a case it becomes that case's outcome (see answer); otherwise the driver is told, and renews.
function uncaught(c, error) {
  const { s } = c;
  if (s.failed) return;
  Object.assign(s, { failed: true, failure: error });
  if (!s.inCase) {
    s.spoiled = "crashed";
    post(c, { type: "failed", message: reason(error) });
  }
}

const reason = (error) => String(error?.message ?? error);
