// The restore floor's worker: the least a page can do to get Python ready from the memory snapshot the site ships.
// It fetches the snapshot straight from the server (the browser's HTTP cache on a second visit: no service worker),
// makes it whole (snapshot-format.js, the site's own, copied beside this file by bench/run.py), restores it with the
// options the site's worker gives Pyodide (worker-core.js, startPython), and runs `1+1`. No grader is set up.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { whole } from "./snapshot-format.js";

const file = new URL(import.meta.url).searchParams.get("snapshot");
const snapshot = fetch(new URL(`../py/${file}`, import.meta.url))
  .then((response) => response.arrayBuffer())
  .then((stored) => whole(stored));
const discard = () => {};
const pyodide = await loadPyodide({
  indexURL: new URL("../pyodide/", import.meta.url).href,
  _loadSnapshot: snapshot,
  stdout: discard,
  stderr: discard,
  _sysExecutable: "./this.program",
  env: { LANG: "C.UTF-8" },
});
self.postMessage({ result: pyodide.runPython("1+1") });
