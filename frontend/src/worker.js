// The browser's module worker: Pyodide and the grader, served from this site (never a CDN).
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { serveWorker } from "./worker-core.js";

const pyBase = new URL("../py/", import.meta.url);

async function readGraderFiles() {
  const manifest = await (await fetch(new URL("manifest.json", pyBase))).json();
  return Promise.all(
    manifest.files.map(async (path) => {
      const response = await fetch(new URL(path, pyBase));
      if (!response.ok) throw new Error(`cannot load ${path}: HTTP ${response.status}`);
      return { path, text: await response.text() };
    }),
  );
}

serveWorker({
  loadPyodide,
  readGraderFiles,
  post: (message) => self.postMessage(message),
  listen: (handler) => self.addEventListener("message", (event) => handler(event.data)),
});
