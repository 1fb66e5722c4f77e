// The worker side of the grading protocol, shared by the browser's module worker (worker.js) and the
// Node runner's worker thread (../node-worker.mjs); each passes in what differs between them.
//
// Protocol (every message is a plain object with a `type`):
//   driver -> worker  {type: "init", interruptBuffer, answered, keepSnapshot}  Int32Arrays of one item on a SharedArrayBuffer,
//                                                                    or null; keepSnapshot: a page's own start may keep one
//                     {type: "run-case", runId, index, source, sandbox, entry, args}
//                     {type: "renew"}                                  a fresh interpreter (Node runner: each run; any: a broken case)
//                     {type: "make-snapshot"}                          sent to a worker of its own, instead of init
//   worker -> driver  {type: "ready", version, snapshot}              snapshot: "restored" | "missing" | undefined (not supported)
//                     {type: "renewed"}                                answers "renew": the next case runs in the new interpreter
//                     {type: "case-done", runId, index, outcome, crashed}
//                     {type: "fatal", message}                        Python could not start
//                     {type: "snapshot-done", saved}                   saved: bytes stored, or 0 when it failed
// One case at a time, and only when asked: an interrupt meant for a case that has just finished can then
// never reach the next one, because the buffer is cleared before each case starts.
//
// Python boots on "init", or at once when the worker is created with `eager` (the page's worker, spawned
// before the page's own script has even loaded): the worker says nothing until "init" all the same.
//
// Memory snapshots. In the browser, a page that finds none (a first visit) and may do background work (init's
// keepSnapshot) snapshots Pyodide's memory as its own Python starts, once the grader is imported and before any
// learner code has run, and keeps it: later starts restore it instead of booting the interpreter. Made then, it is
// kept even when the page is closed a moment after Python is ready ("make-snapshot", in a worker of its own, makes
// one the same way without a page). The Node runner's store says `makeAtStart`: its first worker makes the snapshot before it
// starts, then every interpreter, the first included, is restored from it, and "renew" (sent before each
// submission) swaps in a new one: nothing one submission does can reach the next. Every restore starts from the
// same state, so `random` is re-seeded. The file system is not in the snapshot: the grader's files are written
// again on every start, so tracebacks quote the same lines either way.

const PY_ROOT = "/lib/loopcraft";
// The grader captures what learner code prints; anything written past it (os.write(1, ...)) is
// dropped, so it can neither flood the console nor pose as the Node runner's own output.
const discard = () => {};

// Learner code must not reach JavaScript: from there it could post forged verdicts to the page or,
// under Node, read the exercises' hidden expected values from disk. Pyodide's `js` and `pyodide_js`
// modules go, and so do the Function constructors, the one step from any JavaScript object (a list
// passed through pyodide.ffi.to_js, say) to running arbitrary JavaScript. Pyodide needs neither once
// loaded. unregisterJsModule leaves the modules themselves in sys.modules and in the import system's
// loaders: grader.guard.cut_javascript_handles, run right after, drops those and every other JavaScript
// object Python holds (tests/hostile/js_found_through_gc.py walks gc to prove it). Under Node the runner also
// runs with code generation from strings disallowed and under the permission model (loopcraft/pyodide.py).
// docs/threat-model.md has the rest.
function closeWayToJavaScript(pyodide) {
  pyodide.unregisterJsModule("js");
  pyodide.unregisterJsModule("pyodide_js");
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    Object.defineProperty(Object.getPrototypeOf(fn), "constructor", { value: undefined });
  }
}

// Pyodide 314 only logs a failure to fetch or instantiate its WebAssembly, and loadPyodide then never settles:
// the page would say "Loading Python…" forever. So `load` runs with WebAssembly's instantiation watched, and
// fails with the reason instead.
async function failingLoudly(load) {
  const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  failed.catch(() => {}); // once `load` has settled, a late failure is nobody's to handle
  for (const [name, original] of Object.entries(originals)) {
    WebAssembly[name] = (...args) => {
      const result = original.apply(WebAssembly, args);
      result.catch((error) => fail(new Error(`its WebAssembly could not be loaded: ${error?.message ?? error}`)));
      return result;
    };
  }
  try {
    return await Promise.race([load(), failed]);
  } finally {
    Object.assign(WebAssembly, originals);
  }
}

const isText = (v) => typeof v === "string";
function isOutcome(o) {
  return o !== null && typeof o === "object" && isText(o.output) && Array.isArray(o.trace)
    && ((o.kind === "value" && isText(o.value)) || (o.kind === "error" && isText(o.error)));
}

function writeGraderFiles(pyodide, files) {
  for (const { path, text } of files) {
    const full = `${PY_ROOT}/${path}`;
    pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    pyodide.FS.writeFile(full, text);
  }
}

function importGrader(pyodide) {
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(PY_ROOT)}); import grader.execute, grader.guard`);
}

// Pyodide takes a signal from its interrupt buffer by reading it and then writing 0 (CPython's
// _Py_CheckEmscriptenSignals_Helper): two steps. A SIGINT the driver stores between them is overwritten and
// lost, and the case loops on until the driver gives up and restarts Python. That happened to about one
// interrupt in thirty on a loaded two-core machine. Pyodide gets this view of the buffer instead: reading it
// takes the signal and clears the buffer in one atomic step, so the write that follows has nothing to lose.
export function takeOnRead(buffer) {
  return Object.defineProperty({}, 0, { get: () => Atomics.exchange(buffer, 0, 0), set: () => {} });
}

// snapshots (optional): {find(): Promise<null | {bytes: Promise<ArrayBuffer>}>, save(bytes), discard()}
export function serveWorker({ loadPyodide: loadAny, readGraderFiles, post, listen, snapshots = null, eager = false }) {
  let runCase = null;
  let interruptBuffer = null;
  let keepWanted; // settled by "init": whether a first start keeps its snapshot
  const keepSnapshot = new Promise((resolve) => (keepWanted = resolve));
  let answered = null; // counts the cases answered, for a driver too busy to have read the answer yet
  const loadPyodide = (extra = {}) => failingLoudly(() => loadAny({ stdout: discard, stderr: discard, ...extra }));
  let booting = null;
  // Read once per worker: every renew writes the same files again (a read that failed is tried again next time).
  let graderFiles = null;
  const readGraderFilesOnce = () =>
    (graderFiles ??= readGraderFiles().catch((error) => {
      graderFiles = null;
      throw error;
    }));

  // A snapshot that cannot be restored (a browser update, a corrupt entry) is dropped, and Python boots plainly.
  async function restoreOrLoad() {
    let found = snapshots && await snapshots.find().catch(() => null);
    if (!found && snapshots?.makeAtStart) {
      const bytes = await makeSnapshotBytes();
      await snapshots.save(bytes);
      found = { bytes: Promise.resolve(bytes) };
    }
    if (found) {
      try {
        return { pyodide: await loadPyodide({ _loadSnapshot: found.bytes }), restored: true };
      } catch {
        await snapshots.discard().catch(() => {});
      }
    }
    // None yet: this start can make it (see boot). Loaded ready to be snapshotted, which costs next to nothing.
    const snapshotting = Boolean(snapshots && !snapshots.makeAtStart);
    return { pyodide: await loadPyodide(snapshotting ? { _makeSnapshot: true } : {}), restored: false, snapshotting };
  }

  async function makeSnapshotBytes() {
    const [pyodide, files] = await Promise.all([loadPyodide({ _makeSnapshot: true }), readGraderFilesOnce()]);
    writeGraderFiles(pyodide, files);
    importGrader(pyodide);
    return pyodide.makeMemorySnapshot();
  }

  async function boot() {
    const [{ pyodide, restored, snapshotting }, files] = await Promise.all([restoreOrLoad(), readGraderFilesOnce()]);
    writeGraderFiles(pyodide, files);
    if (restored) pyodide.runPython("import random; random.seed()");
    else importGrader(pyodide);
    // What a restore starts from, as makeSnapshotBytes makes it: kept in the background once Python is ready.
    if (snapshotting && await keepSnapshot) snapshots.save(pyodide.makeMemorySnapshot()).catch(() => {});
    closeWayToJavaScript(pyodide);
    pyodide.pyimport("grader.guard").cut_javascript_handles();
    pyodide.pyimport("grader.execute").settle();
    return { pyodide, restored };
  }

  // Answers with `reply(pyodide, restored)` once the interpreter being booted is ready.
  async function serve(reply) {
    try {
      const { pyodide, restored } = await booting;
      if (interruptBuffer) pyodide.setInterruptBuffer(takeOnRead(interruptBuffer));
      runCase = pyodide.pyimport("grader.execute").run_case;
      post(reply(pyodide, restored));
    } catch (error) {
      post({ type: "fatal", message: String(error?.message ?? error) });
    }
  }

  function init({ interruptBuffer: buffer, answered: counter = null, keepSnapshot: keep = false }) {
    interruptBuffer = buffer;
    answered = counter;
    keepWanted(keep);
    booting ??= boot();
    const told = snapshots && !snapshots.makeAtStart;
    return serve((pyodide, restored) => ({
      type: "ready",
      version: pyodide.runPython("import sys; sys.version.split()[0]"),
      snapshot: told ? (restored ? "restored" : "missing") : undefined,
    }));
  }

  // The old interpreter is dropped whole; JavaScript's garbage collector frees its memory.
  function renew() {
    runCase = null;
    booting = boot();
    return serve(() => ({ type: "renewed" }));
  }

  async function makeSnapshot() {
    let saved = 0;
    try {
      const bytes = await makeSnapshotBytes();
      await snapshots.save(bytes);
      saved = bytes.length;
    } catch {
      // No snapshot: later visits start plainly, as this one did.
    }
    post({ type: "snapshot-done", saved });
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
    if (answered) Atomics.add(answered, 0, 1);
    post({ type: "case-done", runId, index, outcome, crashed });
  }

  if (eager) {
    booting = boot();
    booting.catch(() => {}); // a failure is reported when "init" asks
  }
  listen((message) => {
    if (message.type === "init") init(message);
    else if (message.type === "run-case") run(message);
    else if (message.type === "renew") renew();
    else if (message.type === "make-snapshot" && snapshots) makeSnapshot();
  });
}
