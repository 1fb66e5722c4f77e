// The worker side of the grading protocol, shared by the browser's module worker (worker.js) and the
// Node runner's worker thread (../node-worker.mjs); each passes in what differs between them.
//
// Protocol (every message is a plain object with a `type`):
//   driver -> worker  {type: "init", indexURL, interruptBuffer}      interruptBuffer: Int32Array on a SharedArrayBuffer, or null
//                     {type: "run-case", runId, index, source, sandbox, entry, args}
//   worker -> driver  {type: "ready", version}
//                     {type: "case-done", runId, index, outcome, crashed}
//                     {type: "fatal", message}                        Python could not start
// One case at a time, and only when asked: an interrupt meant for a case that has just finished can then
// never reach the next one, because the buffer is cleared before each case starts.

const PY_ROOT = "/lib/loopcraft";
// The grader captures what learner code prints; anything written past it (os.write(1, ...)) is
// dropped, so it can neither flood the console nor pose as the Node runner's own output.
const discard = () => {};

// Learner code must not reach JavaScript: from there it could post forged verdicts to the page or,
// under Node, read the exercises' hidden expected values from disk. Pyodide's `js` and `pyodide_js`
// modules go, and so do the Function constructors, the one step from any JavaScript object (a list
// passed through pyodide.ffi.to_js, say) to running arbitrary JavaScript. Pyodide needs neither once
// loaded. docs/threat-model.md has the rest.
function closeWayToJavaScript(pyodide) {
  pyodide.unregisterJsModule("js");
  pyodide.unregisterJsModule("pyodide_js");
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    Object.defineProperty(Object.getPrototypeOf(fn), "constructor", { value: undefined });
  }
}

const isText = (v) => typeof v === "string";
function isOutcome(o) {
  return o !== null && typeof o === "object" && isText(o.output) && Array.isArray(o.trace)
    && ((o.kind === "value" && isText(o.value)) || (o.kind === "error" && isText(o.error)));
}

export function serveWorker({ loadPyodide, readGraderFiles, post, listen }) {
  let runCase = null;
  let interruptBuffer = null;

  async function init({ indexURL, interruptBuffer: buffer }) {
    try {
      const [pyodide, files] = await Promise.all([loadPyodide({ indexURL, stdout: discard, stderr: discard }), readGraderFiles()]);
      closeWayToJavaScript(pyodide);
      for (const { path, text } of files) {
        const full = `${PY_ROOT}/${path}`;
        pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
        pyodide.FS.writeFile(full, text);
      }
      pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(PY_ROOT)})`);
      if (buffer) {
        interruptBuffer = buffer;
        pyodide.setInterruptBuffer(buffer);
      }
      runCase = pyodide.pyimport("grader.execute").run_case;
      pyodide.pyimport("grader.guard").cut_javascript_handles();
      post({ type: "ready", version: pyodide.runPython("import sys; sys.version.split()[0]") });
    } catch (error) {
      post({ type: "fatal", message: String(error?.message ?? error) });
    }
  }

  function run({ runId, index, source, sandbox, entry, args }) {
    if (interruptBuffer) Atomics.store(interruptBuffer, 0, 0);
    let outcome;
    let crashed = false;
    try {
      outcome = JSON.parse(runCase(source, sandbox, entry, JSON.stringify(args)));
      if (!isOutcome(outcome)) throw new Error("the grader returned a malformed result (was it tampered with?)");
      crashed = Boolean(outcome.restart); // the grader saw its environment tampered with
      delete outcome.restart;
    } catch (error) {
      // Only the interpreter itself failing lands here (learner exceptions are outcomes already),
      // e.g. the JavaScript stack overflowing under very deep recursion; this Pyodide is unusable now.
      crashed = true;
      outcome = { kind: "error", phase: "call", output: "", error: `Python crashed while running your code: ${error?.message ?? error}` };
    }
    post({ type: "case-done", runId, index, outcome, crashed });
  }

  listen((message) => {
    if (message.type === "init") init(message);
    else if (message.type === "run-case") run(message);
  });
}
