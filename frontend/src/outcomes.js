// The shapes of an outcome (what the interpreter running learner code hands back for one case, before any
// verdict), as grader/results.py makes them: value_outcome, error_outcome, timeout_outcome, PHASES and the one
// timeout text. Every outcome made in JavaScript (the worker, the driver, the Node runner) is made here;
// tests/golden/outcomes.json holds both sides to the same results (tests/test_outcomes.py).

// Where an error came from: the learner's code could not be loaded, raised when called, returned what cannot be
// sent; or the grading machinery failed around it.
export const PHASES = ["load", "call", "return", "grader"];

export const valueOutcome = (value, output = "", trace = []) => ({ kind: "value", value, output, trace });

export function errorOutcome(error, phase, output = "", trace = []) {
  if (!PHASES.includes(phase)) throw new Error(`not a phase: ${phase}`);
  return { kind: "error", phase, error, output, trace };
}

export const timeoutOutcome = (output = "") => ({ kind: "timeout", output, trace: [] });

// grader/results.py's format_seconds: milliseconds at most, no trailing zeros.
export const formatSeconds = (seconds) => Number(seconds).toFixed(3).replace(/\.?0+$/, "");
export const timeoutMessage = (limit) =>
  `Stopped after ${formatSeconds(limit)} s, the time limit for one case. Look for a loop that never ends.`;
