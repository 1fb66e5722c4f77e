// The shapes of an outcome (what the interpreter running learner code hands back for one case, before any
// verdict), as grader/results.py makes them: value_outcome, error_outcome, timeout_outcome, PHASES and the one
// timeout text. Every outcome made in JavaScript (the worker, the driver, the Node runner) is made here;
// tests/golden/outcomes.json holds both sides to the same results (tests/pyodide/test_outcomes.py).
//
// Also here: the learner-facing texts of the outcomes only JavaScript makes (the grader's Python could not give
// one), so that each is written once.

// Where an error came from: the learner's code could not be loaded, raised when called, returned what cannot be
// sent; or the grading machinery failed around it.
export const PHASES = ["load", "call", "return", "grader"];

// `output`: stdout and stderr as the learner is shown them; `stdout`: stdout alone, which a case may compare.
export const valueOutcome = (value, output = "", trace = [], { shown = "", stdout = "" } = {}) =>
  ({ kind: "value", value, shown, output, stdout, trace });

export function errorOutcome(error, phase, output = "", trace = [], { stdout = "" } = {}) {
  if (!PHASES.includes(phase)) throw new Error(`not a phase: ${phase}`);
  return { kind: "error", phase, error, output, stdout, trace };
}

export const timeoutOutcome = (output = "", stdout = "") => ({ kind: "timeout", output, stdout, trace: [] });

// grader/results.py's format_seconds: milliseconds at most, no trailing zeros.
export const formatSeconds = (seconds) => Number(seconds).toFixed(3).replace(/\.?0+$/, "");
export const timeoutMessage = (limit) =>
  `Stopped after ${formatSeconds(limit)} s, the time limit for one case. Look for a loop that never ends.`;
// A lesson's live block (lesson.js): a lesson has no cases.
export const blockTimeoutMessage = (limit) =>
  `Stopped after ${formatSeconds(limit)} s, the time limit for running a block. Look for a loop that never ends, or press Stop.`;

const reason = (error) => String(error?.message ?? error);

// The case stopped Python itself (os._exit, a fatal error, the JavaScript stack overflowing): a new interpreter
// takes over for the next case.
export const crashed = (error) => errorOutcome(`Python crashed while running your code: ${reason(error)}`, "call");

// The worker running Python died or failed outside Python's reach while this case ran; a new one goes on.
export const workerFailed = (error) =>
  errorOutcome(`The grader's Python stopped while running this case, so it has no result: ${reason(error)}.`, "grader");

// The outcome could not be turned into text (a value V8 cannot stringify, say).
export const unsendable = (error) => errorOutcome(`The grader could not send this result back: ${reason(error)}`, "grader");

// The Node runner's reply for one submission is capped (loopcraft/running/pyodide.py, REPLY_BYTES).
export const tooLargeToSend = (bytes) =>
  errorOutcome(
    `This case's result was not sent back: with the cases before it, the submission's results would pass the ${bytes.toLocaleString("en-US")} bytes they may take.`,
    "return",
  );

// A submission's cases share a time budget on the command line (loopcraft/running/grading.py, SUBMISSION_BUDGET_S); a
// case starts only while its whole time limit is left of it.
export const notRun = (budget) =>
  errorOutcome(
    `Not run: this submission's cases had used up their ${formatSeconds(budget)} s of grading time before its turn (a case that loops uses its whole time limit).`,
    "grader",
  );
