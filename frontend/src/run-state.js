// The challenge page's run state, as a pure reducer: next(state, event) -> state. app.js keeps one state, applies
// each event below as it happens, and draws the page from the state (statusOf says what the status shows). Nothing
// here touches the page; tests/js/run-state.test.mjs runs every sequence that matters under node --test.
import { RESTART_REASONS } from "./session.js";
import { summarize } from "./judge.js";
import { passed, tally } from "./verdict.js";

/**
 * The events, one plain object each. Python's (from the session's onState):
 * @typedef {{type: "python-loading"}} PythonLoading
 * @typedef {{type: "python-ready"}} PythonReady Python is up (the session's "ready", "running" and "finished")
 * @typedef {{type: "python-restarting", reason: string}} PythonRestarting reason: one of RESTART_REASONS
 * @typedef {{type: "python-failed", message: string}} PythonFailed Python cannot start: the page is done running
 * A run's (Run, Ctrl+Enter, Stop, Escape, "Run my scenario", and what the session calls back):
 * @typedef {{type: "run-started", kind: "cases" | "scenario", total: number}} RunStarted ignored unless canRun
 * @typedef {{type: "case-started", index: number}} CaseStarted
 * @typedef {{type: "case-finished", index: number, outcome: object}} CaseFinished outcome: outcomes.js's shape
 * @typedef {{type: "stop-requested"}} StopRequested
 * @typedef {{type: "run-judged", tests: object[], outcomes: object[]}} RunJudged the verdicts of the cases that ran
 * @typedef {{type: "mistakes-named", hints: string[]}} MistakesNamed the known mistakes a failed run looks like
 *   (mistakes.js), named before the run ends
 * @typedef {{type: "scenario-returned", outcome: object}} ScenarioReturned
 * @typedef {{type: "run-failed", message: string}} RunFailed the run could not go on (Python failed meanwhile)
 * @typedef {{type: "run-ended"}} RunEnded last of every run, however it went: the results are final
 * @typedef {PythonLoading | PythonReady | PythonRestarting | PythonFailed | RunStarted | CaseStarted | CaseFinished
 *   | StopRequested | RunJudged | MistakesNamed | ScenarioReturned | RunFailed | RunEnded} RunEvent
 */

/**
 * @typedef {object} RunState
 * @property {"loading" | "ready" | "restarting" | "error"} python
 * @property {string | null} pythonError why Python failed to start
 * @property {string | null} restartReason why Python was last restarted: kept once said, for tests to check
 * @property {boolean} busy from the click until the last verdict is in (and the solution unlocked)
 * @property {"cases" | "scenario"} kind Run, or the learner's own scenario (never graded)
 * @property {number} total the cases of the run
 * @property {number | null} current the index of the case running
 * @property {boolean} stopping Stop was pressed during the run
 * @property {"stopped" | "timeout" | null} ended why the run ended before its last case; once judged, only when
 *   the verdict says so (a Stop pressed as the last case finished leaves every case run)
 * @property {object | null} verdict the judge's summary of the run of the cases (judge.js summarize)
 * @property {string[]} mistakes the hints of the known mistakes the last run of the cases looks like
 * @property {string | null} scenario the kind of outcome of the learner's scenario
 * @property {string | null} failure why the run could not go on
 */

/** @type {RunState} */
export const initialState = Object.freeze({
  python: "loading", pythonError: null, restartReason: null,
  busy: false, kind: "cases", total: 0, current: null, stopping: false, ended: null,
  verdict: null, mistakes: [], scenario: null, failure: null,
});

// Code that cannot be loaded: a syntax error, a missing function, an error raised before the function is called.
export const isLoadError = (outcome) => outcome.kind === "error" && outcome.phase === "load";
// A run ends at its first case that runs out of time (an endless loop then costs one time limit, not one a case),
// and at code that cannot be loaded (every case would say the same). The session's stopAt.
export const endsTheRun = (outcome) => outcome.kind === "timeout" || isLoadError(outcome);

/** Whether Run may start now: one run at a time, and none once Python has failed to start. */
export const canRun = (state) => !state.busy && state.python !== "error";

/** @returns {RunState} */
export function next(state, event) {
  switch (event.type) {
    case "python-loading":
      return { ...state, python: "loading" };
    case "python-ready":
      return { ...state, python: "ready" };
    case "python-restarting":
      return { ...state, python: "restarting", restartReason: event.reason };
    case "python-failed":
      return { ...state, python: "error", pythonError: event.message };
    case "run-started":
      if (!canRun(state)) return state;
      return { ...state, busy: true, kind: event.kind, total: event.total, current: null, stopping: false,
        ended: null, verdict: null, mistakes: [], scenario: null, failure: null };
    case "case-started":
      return state.busy ? { ...state, current: event.index } : state;
    case "case-finished":
      // Out of time, the case ended the run (endsTheRun), whether or not Stop was pressed as it ran.
      return state.busy && event.outcome.kind === "timeout" ? { ...state, ended: "timeout" } : state;
    case "stop-requested":
      if (!state.busy || state.stopping) return state;
      return { ...state, stopping: true, ended: state.ended ?? "stopped" };
    case "run-judged": {
      const verdict = summarize(event.tests, event.outcomes, { total: state.total, ended: state.ended });
      const early = verdict.status === "fail" && tally(verdict, state.total).notRun > 0;
      return { ...state, verdict, ended: early ? state.ended : null };
    }
    case "mistakes-named":
      return state.busy && state.verdict !== null ? { ...state, mistakes: [...event.hints] } : state;
    case "scenario-returned":
      return { ...state, scenario: event.outcome.kind };
    case "run-failed":
      return { ...state, failure: event.message };
    case "run-ended":
      return { ...state, busy: false, stopping: false };
    default:
      throw new Error(`not a run event: ${event.type}`);
  }
}

/** The indexes of the cases the status names as not passing once a run of the cases is over: none of code that did
 * not load (its error is said once, above the cases). */
export function failingOf(state) {
  if (state.kind !== "cases" || state.failure !== null || state.verdict?.status !== "fail") return [];
  return tally(state.verdict, state.total).failing;
}

const RESTART_TEXT = {
  [RESTART_REASONS.noInterrupt]: "a case ran out of time, and this page cannot interrupt Python",
  [RESTART_REASONS.noAnswer]: "a case ran out of time and did not stop when interrupted",
  [RESTART_REASONS.stopped]: "you stopped a run, and this page cannot interrupt Python",
  [RESTART_REASONS.workerFailed]: "the worker running it failed",
};

const SCENARIO_TEXT = {
  value: "Your scenario ran: see what your code returned below (not graded).",
  error: "Your scenario ended with an error: see it below (not graded).",
  timeout: "Your scenario ran out of time (not graded).",
};

/**
 * What the status shows. state: "running" from the click until the last verdict is in, not only while Python is
 * busy, so "ready" always means the results are final; outcome: how the last run of the cases went (pass, fail,
 * error or stopped), once it is over, or null.
 * @returns {{state: string, outcome: string | null, text: string}}
 */
export function statusOf(state) {
  const shown = state.python !== "ready" ? state.python : state.busy ? "running" : "ready";
  return { state: shown, outcome: shown === "ready" ? outcomeOf(state) : null, text: textOf(state, shown) };
}

/** The hints of the known mistakes the status names after its text once a run of the cases is over: those the run
 * looks like when it failed (or was stopped), never any while a run is on. */
export function mistakesOf(state) {
  const { outcome } = statusOf(state);
  return outcome === "fail" || outcome === "stopped" ? state.mistakes : [];
}

function outcomeOf(state) {
  if (state.kind !== "cases") return null;
  if (state.failure !== null) return "error";
  if (state.verdict === null) return null;
  return state.ended === "stopped" ? "stopped" : state.verdict.status;
}

function textOf(state, shown) {
  switch (shown) {
    case "loading":
      return state.busy ? "Loading Python… your run starts as soon as it is ready."
        : "Loading Python… you can start writing meanwhile.";
    case "error":
      return `Python failed to load (${state.pythonError}). Reload the page to try again.`;
    case "restarting":
      return `Restarting Python (${RESTART_TEXT[state.restartReason]})…`;
    case "running":
      if (state.stopping) return "Stopping…";
      if (state.kind === "scenario") return "Running your scenario…";
      return state.current === null ? "Starting…" : `Running case ${state.current + 1} of ${state.total}…`;
    default:
      return state.kind === "scenario" ? scenarioText(state) : casesText(state);
  }
}

function scenarioText(state) {
  if (state.failure !== null) return `Your scenario did not run: ${state.failure}`;
  return SCENARIO_TEXT[state.scenario] ?? "Python is ready. Press Run to check your code.";
}

function casesText(state) {
  if (state.failure !== null) return `The run stopped: ${state.failure}`;
  if (state.verdict === null) return "Python is ready. Press Run to check your code.";
  if (state.verdict.status === "error") return "Your code could not be loaded, so no case ran: see the error below.";
  const { passed: count, total, notRun } = tally(state.verdict, state.total);
  if (state.ended === "timeout") return `${count} of ${total} cases passed; the run ended at a case that ran out of time.`;
  if (state.ended === "stopped") return `You stopped the run: ${count} of ${total} cases passed, ${notRun} not run.`;
  return `${count} of ${total} cases passed${passed(state.verdict) ? ". Well done!" : "."}`;
}
