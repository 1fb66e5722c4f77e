// Runs grading requests in Pyodide under Node.js for the build's checks and the CLI grader.
// Started by loopcraft/pyodide.py, which holds the node flags (Node's permission model) in one place.
//
// Arguments: --grader-root DIR and --grader-files LIST (the grader package Pyodide loads), --replies FD (the file descriptor replies go to), --snapshot FILE (a memory snapshot to start
// from) or --snapshot-out FD (where to write the one this runner makes, before it says it is ready), --pyodide DIR (the real path of node_modules/pyodide: the permission model lets this process
// read nothing else but frontend/ and grader/), --reuse (one interpreter for every request: trusted code
// only), --no-interrupt (stop a case over its limit by replacing the worker, as a page without
// SharedArrayBuffer does).
//
// Requests on stdin, one JSON object a line: {"id", "source", "sandbox", "entry", "cases": [{"name", "args"}], "time_limit"}
// Replies on the file descriptor given by --replies, a channel of their own, one JSON object a line: first {"ready": true, "version",
// "load_ms", "snapshot"} or {"ready": false, "error"}, then for each request {"id", "outcomes": [...]} or {"id", "error"}.
// stdout and stderr carry only diagnostics (a stray console.log, Node's own warnings), never a reply.
//
// Every interpreter starts from a memory snapshot of Python with the grader imported, made before any learner
// code ran: the one loopcraft/pyodide.py keeps on disk, or one the first worker makes (and this runner writes
// to --snapshot-out, for the host to keep). Unless --reuse, every request (one submission) gets a fresh
// interpreter restored from it (see worker-core.js, "renew"). The bytes are kept here, so a worker replaced
// after a timeout restores them too.
import { closeSync, readFileSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { Worker } from "node:worker_threads";
import { createSession } from "./src/session.js";

const workerUrl = new URL("./node-worker.mjs", import.meta.url);
const argv = process.argv.slice(2);
const option = (name) => argv.includes(name);
const value = (name) => argv[argv.indexOf(name) + 1];
const pyodideDir = value("--pyodide");
// The grader's files as the host lists them (loopcraft.project.Project.grader_files, the list the browser gets
// too), as paths from --grader-root.
const graderRoot = value("--grader-root");
const graderFiles = value("--grader-files").split(",");
const REPLIES = Number(value("--replies"));
const fresh = !option("--reuse");
// Bytes of the memory snapshot: read from disk, or once the first worker has made them.
let snapshot = option("--snapshot") ? new Uint8Array(readFileSync(value("--snapshot"))) : null;
let snapshotOut = option("--snapshot-out") ? Number(value("--snapshot-out")) : null;
// Told the host with "ready": "kept" (restored from --snapshot), "made" (written to --snapshot-out),
// "unusable" (--snapshot could not be restored: the host drops it, and Python booted plainly) or "none".
let snapshotState = snapshot ? "kept" : snapshotOut !== null ? "made" : "none";
// A reusing runner with no snapshot to keep boots Python plainly: making one would only cost time.
const plain = !fresh && snapshotState === "none";

function spawn() {
  const worker = new Worker(workerUrl, { workerData: { pyodideDir, graderRoot, graderFiles, snapshot, plain } });
  return {
    post: (message) => worker.postMessage(message),
    listen: (onMessage, onError) => {
      worker.on("message", (message) => {
        // The worker's own delivery of the snapshot it made, for the workers that come after it.
        if (message.type === "snapshot-bytes") keep(message.bytes);
        else if (message.type === "snapshot-unusable") snapshotState = "unusable";
        else onMessage(message);
      });
      worker.on("error", onError);
    },
    terminate: () => worker.terminate(),
  };
}

function writeAll(fd, bytes) {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
}

function write(obj) {
  writeAll(REPLIES, Buffer.from(`${JSON.stringify(obj)}\n`, "utf8"));
}

// Arrives before the worker's "ready", so the host finds the file whole when it reads that.
function keep(bytes) {
  snapshot = bytes;
  if (snapshotOut === null) return;
  writeAll(snapshotOut, bytes);
  closeSync(snapshotOut);
  snapshotOut = null;
}

// One submission's reply that cannot be written (a value V8 cannot turn into a string, say) costs that
// submission only: each outcome that cannot be encoded becomes an error outcome.
function encodable(outcome) {
  try {
    JSON.stringify(outcome);
    return outcome;
  } catch (error) {
    return { kind: "error", phase: "return", output: "", trace: [], error: `The grader could not send this result back: ${error?.message ?? error}` };
  }
}

let fatal = null;
const session = createSession({
  spawn,
  fresh,
  onState: (state, detail) => {
    if (state === "ready") write({ ready: true, version: detail.version, load_ms: detail.loadMs, snapshot: snapshotState });
    if (state === "error") {
      fatal = detail.message;
      write({ ready: false, error: detail.message });
    }
  },
  useInterrupt: !option("--no-interrupt"),
});

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let request;
  try {
    request = JSON.parse(line);
    // No default limit here: every request carries its exercise's (loopcraft/pyodide.py always sends one).
    const outcomes = await session.run({ ...request, timeLimitMs: Math.round(Number(request.time_limit) * 1000) });
    write({ id: request.id, outcomes: outcomes.map(encodable) });
  } catch (error) {
    write({ id: request?.id ?? null, error: fatal ?? String(error?.message ?? error) });
  }
}
process.exit(0);
