// Runs grading requests in Pyodide under Node.js for the build's checks and the CLI grader.
// Pyodide loads once per process; every solution then gets a fresh namespace per case.
//
// stdin, one JSON object a line:  {"id", "source", "sandbox", "entry", "cases": [{"name", "args"}], "time_limit"}
// stdout, one JSON object a line: {"id", "outcomes": [...]} or {"id", "error": "..."}; first {"ready": true, "version"}
import { createInterface } from "node:readline";
import { Worker } from "node:worker_threads";
import { createSession } from "./src/session.js";

const workerUrl = new URL("./node-worker.mjs", import.meta.url);
const useInterrupt = !process.argv.includes("--no-interrupt");

function spawn() {
  const worker = new Worker(workerUrl);
  return {
    post: (message) => worker.postMessage(message),
    listen: (onMessage, onError) => {
      worker.on("message", onMessage);
      worker.on("error", onError);
    },
    terminate: () => worker.terminate(),
  };
}

const write = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);
let fatal = null;
const session = createSession({
  spawn,
  useInterrupt,
  onState: (state, detail) => {
    if (state === "ready") write({ ready: true, version: detail.version, load_ms: detail.loadMs });
    if (state === "error") {
      fatal = detail.message;
      write({ ready: false, error: detail.message });
    }
  },
});

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let request;
  try {
    request = JSON.parse(line);
    // No default limit here: every request carries its exercise's (loopcraft/pyodide.py always sends one).
    const outcomes = await session.run({ ...request, timeLimitMs: Math.round(Number(request.time_limit) * 1000) });
    write({ id: request.id, outcomes });
  } catch (error) {
    write({ id: request?.id ?? null, error: fatal ?? String(error?.message ?? error) });
  }
}
process.exit(0);
