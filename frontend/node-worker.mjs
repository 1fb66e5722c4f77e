// Node's counterpart of src/worker.js: a worker thread with Pyodide from node_modules and the grader the runner
// read from the repository as it started, so the CLI and the build run exactly what the browser runs.
import { constants as fsConstants } from "node:fs";
import { constants as osConstants } from "node:os";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { serveWorker } from "./src/worker-core.js";

// Under Node's permission model process.binding() is refused, and Pyodide's start-up reads
// process.binding("constants").fs (the open flags of its NODEFS); the public constants are the same values.
const bindingConstants = { fs: fsConstants, os: osConstants };
process.binding = (name) => {
  if (name === "constants") return bindingConstants;
  throw new Error(`process.binding("${name}") is not available to the grader`);
};

// Imported by its real path: resolving "pyodide" would read node_modules itself, which this process may not.
const { loadPyodide } = await import(pathToFileURL(`${workerData.pyodideDir}/pyodide.mjs`).href);

// Every interpreter is restored from the runner's snapshot (see node-runner.mjs): read from disk, or made by
// the first worker, which hands it to the runner for every later one.
let snapshot = workerData.snapshot;
const snapshots = {
  makeAtStart: true,
  find: async () => (snapshot ? { bytes: Promise.resolve(snapshot) } : null),
  save: async (bytes) => {
    snapshot = bytes;
    parentPort.postMessage({ type: "snapshot-bytes", bytes });
  },
  discard: async () => {
    snapshot = null;
    parentPort.postMessage({ type: "snapshot-unusable" });
  },
};

serveWorker({
  loadPyodide: (options) => loadPyodide({ ...options, indexURL: `${workerData.pyodideDir}/` }),
  // workerData.grader: [{path, text}], read by the runner (node-runner.mjs), e.g. path "grader/execute.py".
  readGraderFiles: async () => workerData.grader,
  post: (message) => parentPort.postMessage(message),
  listen: (handler) => parentPort.on("message", handler),
  // Handled here, these end no thread: in a worker thread Node raises them on the worker's own process object.
  onUncaught: (handler) => {
    process.on("unhandledRejection", handler);
    process.on("uncaughtException", handler);
  },
  // Node reports a task's unhandled rejections once its microtasks have run, before the next setImmediate.
  nextTask: () => new Promise((resolve) => setImmediate(resolve)),
  snapshots: workerData.plain ? null : snapshots,
  resets: workerData.resets,
});
