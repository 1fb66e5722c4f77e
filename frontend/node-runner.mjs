// Runs grading requests in Pyodide under Node.js for the build's checks and the CLI grader.
// Started by loopcraft/pyodide.py, which holds the node flags (Node's permission model) in one place.
//
// Arguments: --replies FD (the file descriptor replies go to), --pyodide DIR (the real path of node_modules/pyodide: the permission model lets this process
// read nothing else but frontend/ and grader/), --reuse (one interpreter for every request: trusted code
// only), --no-interrupt (stop a case over its limit by replacing the worker, as a page without
// SharedArrayBuffer does).
//
// Requests on stdin, one JSON object a line: {"id", "source", "sandbox", "entry", "cases": [{"name", "args"}], "time_limit"}
// Replies on the file descriptor given by --replies, a channel of their own, one JSON object a line: first {"ready": true, "version",
// "load_ms"} or {"ready": false, "error"}, then for each request {"id", "outcomes": [...]} or {"id", "error"}.
// stdout and stderr carry only diagnostics (a stray console.log, Node's own warnings), never a reply.
//
// Unless --reuse, every request (one submission) gets a fresh interpreter: the first worker makes a memory
// snapshot of Python with the grader imported, before any learner code runs, and every request starts from
// it (see worker-core.js, "renew"). The snapshot is kept here, so a worker replaced after a timeout restores
// it too instead of making it again.
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { Worker } from "node:worker_threads";
import { createSession } from "./src/session.js";

const workerUrl = new URL("./node-worker.mjs", import.meta.url);
const argv = process.argv.slice(2);
const option = (name) => argv.includes(name);
const value = (name) => argv[argv.indexOf(name) + 1];
const pyodideDir = value("--pyodide");
// The grader's files as the host lists them (loopcraft.grading.grader_files, the list the browser gets too).
const graderFiles = value("--grader-files").split(",");
const REPLIES = Number(value("--replies"));
const fresh = !option("--reuse");
let snapshot = null; // bytes of the memory snapshot, once the first worker has made it

function spawn() {
  const worker = new Worker(workerUrl, { workerData: { pyodideDir, graderFiles, snapshot, fresh } });
  return {
    post: (message) => worker.postMessage(message),
    listen: (onMessage, onError) => {
      worker.on("message", (message) => {
        // The worker's own delivery of the snapshot it made, for the workers that come after it.
        if (message.type === "snapshot-bytes") snapshot = message.bytes;
        else onMessage(message);
      });
      worker.on("error", onError);
    },
    terminate: () => worker.terminate(),
  };
}

function write(obj) {
  const line = `${JSON.stringify(obj)}\n`;
  const bytes = Buffer.from(line, "utf8");
  for (let done = 0; done < bytes.length;) done += writeSync(REPLIES, bytes, done);
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
    if (state === "ready") write({ ready: true, version: detail.version, load_ms: detail.loadMs });
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
