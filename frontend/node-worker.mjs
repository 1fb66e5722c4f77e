// Node's counterpart of src/worker.js: a worker thread with Pyodide from node_modules and the grader
// read from the repository, so the CLI and the build run exactly what the browser runs.
import { readdir, readFile } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { loadPyodide } from "pyodide";
import { serveWorker } from "./src/worker-core.js";

const graderDir = new URL("../grader/", import.meta.url);

async function readGraderFiles() {
  const names = (await readdir(graderDir)).filter((name) => name.endsWith(".py"));
  return Promise.all(names.map(async (name) => ({ path: `grader/${name}`, text: await readFile(new URL(name, graderDir), "utf8") })));
}

serveWorker({
  loadPyodide: ({ stdout, stderr }) => loadPyodide({ stdout, stderr }),
  readGraderFiles,
  post: (message) => parentPort.postMessage(message),
  listen: (handler) => parentPort.on("message", handler),
});
