// Runs grading requests in Pyodide under Node.js for the build's checks and the CLI grader, and judges them: the
// learner's code runs in a worker thread, and this thread judges its outcomes with the page's own judge
// (src/judge.js), out of that code's reach. Started by loopcraft/running/pyodide.py, which holds the node flags (Node's
// permission model) in one place.
//
// Arguments (each checked; a wrong one ends the runner with exit code 2 and a line on stderr):
//   --pyodide DIR          the real path of node_modules/pyodide (the permission model lets this process read
//                          nothing else but frontend/ and grader/)
//   --grader-root DIR, --grader-files LIST
//                          the grader package Pyodide loads: comma-separated paths from DIR
//   --replies FD           the file descriptor replies go to
//   --max-request BYTES    a request line longer than this is refused unread
//   --max-reply BYTES      what one request's outcomes may take, at most (the cases past it are judged as errors)
//   --snapshot FILE        a memory snapshot to start from, or
//   --snapshot-out FD      where to write the one this runner makes, before it says it is ready
//   --reuse                one interpreter for every request: trusted code only
//   --no-interrupt         stop a case over its limit by replacing the worker, as a page without
//                          SharedArrayBuffer does
//   --no-reset             give each request an interpreter restored from the snapshot, never one reset in place
//                          (src/reset.js): the baseline the benchmark compares resets with
//
// Requests on stdin, one JSON object a line:
//   {"id", "source", "sandbox", "cases": [...], "mistakes", "time_limit", "budget"}
//   cases: each {"name", "hidden", "private", "call_twice", "run", "expect", "call_shown"}, `run` its run spec
//   {entry, args, call, setup, stdin, call_twice, keep_stdout} and `expect` its expectation (docs/architecture.md,
//   "Verdicts"); mistakes: the challenge's known mistakes, {"salt", "known": [{"hint", "cases"}]} (src/mistakes.js),
//   or null; time_limit: seconds a case may take; budget (optional, seconds): what all the request's cases may take
//   together (see session.js).
// Replies on the file descriptor given by --replies, a channel of their own, one JSON object a line, each with a
// `type`; an error also has a `kind`:
//   {"type": "ready", "version", "load_ms", "snapshot"}        first, once: Python is up
//   {"type": "verdict", "id", "verdict": {...}, "fresh"}     a request's verdict, the results document
//                          (grader/results.py RunResult.to_dict, with private details and hidden cases' values), each
//                          case with the known mistake it looks like, if any (`mistake`); `fresh`: how its
//                          interpreter was made: "reset" in place, "started" (restored from the snapshot, the first
//                          request's and where a reset could not vouch for the interpreter), or "kept" (--reuse)
//   {"type": "error", "id", "kind", "message"}                 kind "start": Python could not start (first, then the
//                          runner ends; id null); "request": the request was refused (not JSON, not a request, too
//                          long: id null when it could not be read); "runner": the runner itself failed during the
//                          request (it ends after saying so)
// `snapshot`: "kept" (restored from --snapshot), "made" (written to --snapshot-out), "unusable" (--snapshot could
// not be restored: the host drops it, and Python booted plainly) or "none".
// stdout and stderr carry only diagnostics (a stray console.log, Node's own warnings), never a reply.
//
// Every interpreter starts from a memory snapshot of Python with the grader imported, made before any learner
// code ran: the one loopcraft/running/pyodide.py keeps on disk, or one the first worker makes (and this runner writes
// to --snapshot-out, for the host to keep). Unless --reuse, every request (one submission) gets a fresh
// interpreter restored from it (see worker-core.js, "renew"). The bytes are kept here, so a worker replaced
// after a timeout restores them too.
//
// Nothing a submission does ends the runner: its worker catches what fails in it (worker-core.js), a worker that
// dies all the same is replaced (session.js), and every outcome and reply is capped.
import { closeSync, readFileSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { cliOptions } from "./cli-options.mjs";
import { judgeRun, readable } from "./src/judge.js";
import { tooLargeToSend, unsendable } from "./src/outcomes.js";
import { createSession } from "./src/session.js";
import { verdictText } from "./src/verdict.js";

const workerUrl = new URL("./node-worker.mjs", import.meta.url);

function options() {
  const values = cliOptions(
    "node-runner.mjs",
    {
      pyodide: { type: "string" },
      "grader-root": { type: "string" },
      "grader-files": { type: "string" },
      replies: { type: "string" },
      "max-request": { type: "string" },
      "max-reply": { type: "string" },
      snapshot: { type: "string" },
      "snapshot-out": { type: "string" },
      reuse: { type: "boolean", default: false },
      "no-interrupt": { type: "boolean", default: false },
      "no-reset": { type: "boolean", default: false },
    },
    ["pyodide", "grader-root", "grader-files", "replies", "max-request", "max-reply"],
  );
  const whole = (name) => {
    if (!/^\d+$/.test(values[name])) throw new Error(`--${name} must be a whole number, not ${JSON.stringify(values[name])}`);
    return Number(values[name]);
  };
  if (values.snapshot && values["snapshot-out"]) throw new Error("--snapshot and --snapshot-out exclude each other");
  return {
    pyodideDir: values.pyodide,
    // The grader's files as the host lists them (loopcraft.course.project.Project.grader_files, the list the browser gets
    // too), as paths from --grader-root.
    graderRoot: values["grader-root"],
    graderFiles: values["grader-files"].split(","),
    replies: whole("replies"),
    maxRequest: whole("max-request"),
    maxReply: whole("max-reply"),
    snapshotFile: values.snapshot ?? null,
    snapshotOut: values["snapshot-out"] === undefined ? null : whole("snapshot-out"),
    fresh: !values.reuse,
    interrupt: !values["no-interrupt"],
    resets: !values.reuse && !values["no-reset"],
  };
}

let config;
try {
  config = options();
} catch (error) {
  process.stderr.write(`node-runner.mjs: ${error.message}\n`);
  process.exit(2);
}

function writeAll(fd, bytes) {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
}

function reply(obj) {
  writeAll(config.replies, Buffer.from(`${JSON.stringify(obj)}\n`, "utf8"));
}

// The request being answered, for a failure of the runner's own to name.
let current = null;

// A failure of the runner's own code (never of a submission's: its worker catches those) ends the runner, after
// saying so: the host starts another, and grades that submission again in it.
function failed(error) {
  try {
    reply({ type: "error", id: current, kind: "runner", message: `the runner failed: ${error?.stack ?? error}` });
  } finally {
    process.exit(1);
  }
}
process.on("uncaughtException", failed);
process.on("unhandledRejection", failed);

// Bytes of the memory snapshot: read from disk, or once the first worker has made them.
let snapshot = config.snapshotFile ? new Uint8Array(readFileSync(config.snapshotFile)) : null;
let snapshotOut = config.snapshotOut;
let snapshotState = snapshot ? "kept" : snapshotOut !== null ? "made" : "none";
// A reusing runner with no snapshot to keep boots Python plainly: making one would only cost time.
const plain = !config.fresh && snapshotState === "none";

// The grader's files, read once: every worker of this runner (one replaced after a timeout too) loads the same
// grader, whatever happens to the files on disk meanwhile, so the host may lend the runner to any project whose
// grader has the same bytes (loopcraft.running.grading.Runners.key).
const graderRoot = pathToFileURL(`${config.graderRoot}/`);
let grader;
try {
  grader = config.graderFiles.map((path) => ({ path, text: readFileSync(new URL(path, graderRoot), "utf8") }));
} catch (error) {
  reply({ type: "error", id: null, kind: "start", message: `the grader could not be read: ${error.message}` });
  process.exit(1);
}

function spawn() {
  const worker = new Worker(workerUrl, { workerData: { pyodideDir: config.pyodideDir, grader, snapshot, plain, resets: config.resets } });
  lastMade = "started";
  return {
    post: (message) => worker.postMessage(message),
    listen: (onMessage, onError) => {
      worker.on("message", (message) => {
        // The worker's own delivery of the snapshot it made, for the workers that come after it.
        if (message.type === "snapshot-bytes") keep(message.bytes);
        else if (message.type === "snapshot-unusable") snapshotState = "unusable";
        else {
          if (message.type === "renewed") {
            fresh ??= message.how;
            lastMade = message.how;
          }
          onMessage(message);
        }
      });
      worker.on("error", onError);
      worker.on("messageerror", onError);
      // After "error" this comes too, and is ignored (the session has replaced the worker by then).
      worker.on("exit", (code) => onError(new Error(`its worker thread ended (exit code ${code})`)));
    },
    terminate: () => worker.terminate(),
  };
}

// Arrives before the worker's "ready", so the host finds the file whole when it reads that.
function keep(bytes) {
  snapshot = bytes;
  if (snapshotOut === null) return;
  writeAll(snapshotOut, bytes);
  closeSync(snapshotOut);
  snapshotOut = null;
}

// A submission's outcomes, checked, and together at most maxReply bytes of JSON: an outcome that would take them past
// the cap is judged as an error for that case only.
function bounded(outcomes) {
  let size = 2;
  return outcomes.map((outcome) => {
    let kept = readable(outcome);
    let bytes = 0;
    try {
      bytes = Buffer.byteLength(JSON.stringify(kept), "utf8") + 1;
    } catch (error) {
      kept = unsendable(error);
    }
    if (size + bytes > config.maxReply) return tooLargeToSend(config.maxReply);
    size += bytes;
    return kept;
  });
}


// How the interpreter of the request being answered was made (see "verdict" above): its first renew says, and a
// request that renews nothing has the interpreter the last renew made (after a case that broke the one before it),
// or a worker's first one (the first request; one after a worker was replaced).
let fresh = null;
let lastMade = "started";

let ready = false;
const session = createSession({
  spawn,
  fresh: config.fresh,
  onState: (state, detail) => {
    if (state === "ready" && !ready) {
      ready = true;
      reply({ type: "ready", version: detail.version, load_ms: detail.loadMs, snapshot: snapshotState });
    } else if (state === "error" && !ready) {
      reply({ type: "error", id: null, kind: "start", message: detail.message });
      process.exit(1);
    }
  },
  useInterrupt: config.interrupt,
});

// The request lines on stdin, each at most `max` bytes; a longer one is skipped whole and comes as null.
async function* requestLines(input, max) {
  let parts = [];
  let size = 0;
  let tooLong = false;
  for await (const chunk of input) {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!tooLong && size + end - start > max) {
        tooLong = true;
        parts = [];
      }
      if (!tooLong) {
        parts.push(chunk.subarray(start, end));
        size += end - start;
      }
      if (newline === -1) break;
      yield tooLong ? null : Buffer.concat(parts).toString("utf8");
      parts = [];
      size = 0;
      tooLong = false;
      start = newline + 1;
    }
  }
}

const isText = (value) => typeof value === "string";
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

const isName = (value) => isText(value) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value);
const orNull = (check) => (value) => value === null || check(value);
// A run spec as grader.execute.run_case reads it: an entry (a name or names), and `args` (value text) or `call`.
const isRun = (run) => isObject(run) && (isName(run.entry) || (Array.isArray(run.entry) && run.entry.length > 0 && run.entry.every(isName)))
  && (isText(run.args) !== isText(run.call)) && [run.args, run.call, run.setup, run.stdin].every(orNull(isText))
  && typeof run.call_twice === "boolean" && typeof run.keep_stdout === "boolean";

// The request, or what is wrong with it.
function readRequest(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return { problem: `not JSON (${error.message})` };
  }
  if (!isObject(request)) return { problem: "not a JSON object" };
  const id = Number.isInteger(request.id) ? request.id : null;
  const { source, sandbox, cases, mistakes = null, time_limit: limit, budget = null } = request;
  let problem = null;
  if (id === null) problem = "its id is not a whole number";
  else if (![source, sandbox].every(isText)) problem = "source and sandbox must be strings";
  else if (!Array.isArray(cases) || !cases.every((c) => isObject(c) && isText(c.name) && isRun(c.run) && isObject(c.expect))) {
    problem = "cases must be a list of {name, run, expect}, run a run spec";
  } else if (!(mistakes === null || (isObject(mistakes) && isText(mistakes.salt) && Array.isArray(mistakes.known)))) {
    problem = "mistakes must be null or {salt, known}";
  } else if (!(typeof limit === "number" && limit > 0)) problem = "time_limit must be a number of seconds over 0";
  else if (!(budget === null || (typeof budget === "number" && budget > 0))) problem = "budget must be a number of seconds over 0";
  return problem ? { id, problem } : { id, request };
}

for await (const line of requestLines(process.stdin, config.maxRequest)) {
  if (line === null) {
    reply({ type: "error", id: null, kind: "request", message: `a request was longer than ${config.maxRequest} bytes` });
    continue;
  }
  if (!line.trim()) continue;
  const { id, request, problem } = readRequest(line);
  if (problem) {
    reply({ type: "error", id, kind: "request", message: `not a grading request: ${problem}` });
    continue;
  }
  current = id;
  const madeBefore = lastMade;
  let outcomes;
  try {
    // No default limit here: every request carries its exercise's (loopcraft/running/pyodide.py always sends one).
    outcomes = await session.run({
      source: request.source,
      sandbox: request.sandbox,
      cases: request.cases, // the session sends each case's run spec to the worker (src/session.js, run-case)
      timeLimitMs: Math.round(request.time_limit * 1000),
      budgetMs: request.budget === null || request.budget === undefined ? Infinity : Math.round(request.budget * 1000),
    });
  } catch (error) {
    // Python could not be started again in a new worker: there is nothing left to grade with.
    failed(error);
  }
  fresh ??= config.fresh ? madeBefore : "kept";
  const verdict = await judgeRun(request.cases, bounded(outcomes), { timeLimit: request.time_limit, catalogue: request.mistakes ?? null });
  writeAll(config.replies, Buffer.from(`{"type":"verdict","id":${id},"verdict":${verdictText(verdict)},"fresh":"${fresh}"}\n`, "utf8"));
  current = null;
  fresh = null;
}
process.exit(0);
