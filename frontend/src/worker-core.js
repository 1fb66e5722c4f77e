// The worker side of the grading protocol, shared by the browser's module worker (worker.js) and the
// Node runner's worker thread (../node-worker.mjs); each passes in what differs between them.
//
// Protocol (every message is a plain object with a `type`):
//   driver -> worker  {type: "init", interruptBuffer, answered, keepSnapshot}  Int32Arrays of one item on a SharedArrayBuffer,
//                                                                    or null; keepSnapshot: a page's own start may keep one
//                     {type: "run-case", runId, index, seq, source, sandbox, run}   run: the case's run spec; seq: the session's count of
//                                                                    cases sent, one a message: what an interrupt names
//                     {type: "renew"}                                  a fresh interpreter (Node runner: each run; any: a broken case)
//                     {type: "make-snapshot"}                          sent to a worker of its own, instead of init
//   worker -> driver  {type: "ready", version, snapshot, keeping, phases}  snapshot: "shipped" | "restored" | "missing" | undefined (not
//                                                                    supported); keeping: this start is keeping a snapshot of
//                                                                    itself; phases: where the start's time went (see boot)
//                     {type: "renewed"}                                answers "renew": the next case runs in the new interpreter
//                     {type: "case-done", runId, index, outcome, crashed}   crashed: renew before the next case
//                     {type: "case-skipped", runId, index, seq}       not run: its interpreter broke before it (renew)
//                     {type: "failed", message}                       something failed outside any case: renew
//                     {type: "fatal", message}                        Python could not start
//                     {type: "snapshot-done", saved}                   saved: bytes stored, or 0 when it failed
// (The Node runner's worker also sends its runner {type: "snapshot-bytes", bytes} and {type: "snapshot-unusable"},
// see ../node-worker.mjs.) Cases run one at a time, in the order sent; a page sends all of a run's cases at once, so
// that its worker goes from one to the next without waiting for the page (session.js). The interrupt buffer holds
// the seq of the last case the driver interrupted, and interrupts every case up to it: a case that has just finished
// is past reaching, and an interrupt meant for it never reaches the next one. A case sent but not started that the
// buffer names already is not run: the driver has given up on it (a stopped run). Nor is any case after one that broke
// its interpreter, or after a failure outside any case ("failed"), until "renew": each says "case-skipped", and the
// driver renews and sends it again.
//
// Nothing learner code does ends the worker: a failure outside any call (an unhandled rejection, an uncaught
// exception) is caught (`onUncaught`) and ends the case in flight as a crash, or is told as "failed"; either way
// the interpreter is renewed before the next case.
//
// Python boots on "init", or at once when the worker is created with `eager` (the page's worker, spawned
// before the page's own script has even loaded): the worker says nothing until "init" all the same.
//
// Memory snapshots. In the browser, a page restores the one it kept, else the one the site ships (made by the build
// under Node, the same way: snapshotPython). A page that finds neither, or cannot restore what it found, and may do
// background work (init's keepSnapshot) snapshots Pyodide's memory as its own Python starts, once the grader is imported and before any
// learner code has run, and keeps it: later starts restore it instead of booting the interpreter. Made then, it is
// kept even when the page is closed a moment after Python is ready ("make-snapshot", in a worker of its own, makes
// one the same way without a page). The Node runner's store says `makeAtStart`: its first worker makes the snapshot before it
// starts, then every interpreter, the first included, is restored from it, and "renew" (sent before each
// submission) swaps in a new one: nothing one submission does can reach the next. Every restore starts from the
// same state, so `random` is re-seeded. The file system is not in the snapshot: the grader's files are written
// again on every start, so tracebacks quote the same lines either way.

import { carryOut } from "./effects.js";
import { keepPristine } from "./reset.js";
import { sameBytes } from "./same-bytes.js";
import { initialState, next } from "./worker-state.js";

const PY_ROOT = "/lib/loopcraft";
// The grader captures what learner code prints; anything written past it (os.write(1, ...)) is
// dropped, so it can neither flood the console nor pose as the Node runner's own output.
const discard = () => {};

// Learner code must not reach JavaScript: from there it could post forged verdicts to the page, send what it
// likes to another origin or, under Node, read the exercises' hidden expected values from disk; and JavaScript
// work it leaves behind (a rejected promise) fails later, outside any case, and takes the runner down. Nothing
// here depends on response headers: the page's CSP and Node's flags (loopcraft/running/pyodide.py) come on top.
//
// Per interpreter, once it is up and before any learner code runs:
// - Pyodide's `js` and `pyodide_js` modules go; grader.guard.cut_javascript then drops every JavaScript object
//   Python holds and every function of `_pyodide_core` that makes one or calls JavaScript, wherever Python keeps
//   them (tests/hostile/js_found_through_gc.py walks gc to prove it). It answers with that module's address:
//   the copy of its dict CPython keeps to make it again (`_imp.create_builtin`) is emptied here.
// - Builtin modules that would undo all of it are taken out of CPython's table of builtins, so that no import,
//   importlib or `_imp` call can create them: `_ctypes` (its foreign calls reach emscripten_run_script, i.e.
//   JavaScript's eval, and every function of the interpreter) and CPython's own test modules, which break the
//   interpreter's memory safety on purpose.
const CLOSED_BUILTINS = new Set([
  "_ctypes",
  "_testbuffer",
  "_testcapi",
  "_testclinic",
  "_testclinic_limited",
  "_testinternalcapi",
  "_testlimitedcapi",
  "_xxtestfuzz",
]);

// `use(module)` on a proxy of a Python module that is destroyed after: a proxy left to JavaScript's collector would
// drop its reference whenever that runs, into whatever a reset has put back (reset.js).
function withModule(pyodide, name, use) {
  const module = pyodide.pyimport(name);
  try {
    return use(module);
  } finally {
    module.destroy();
  }
}

function closeWayToJavaScript(pyodide) {
  pyodide.unregisterJsModule("js");
  pyodide.unregisterJsModule("pyodide_js");
  const core = withModule(pyodide, "grader.guard", (guard) => guard.cut_javascript());
  const M = pyodide._module;
  for (const [name, replacement] of Object.entries(CUT_IMPORTS)) {
    if (M[`_${name}`] !== undefined) M[`_${name}`] = replacement;
  }
  // PyModuleDef (stable ABI, 32 bits): PyObject_HEAD (8 bytes), m_init, m_index, m_copy, m_name.
  const def = M._PyModule_GetDef(core);
  if (!def || M.UTF8ToString(M.HEAPU32[(def + 20) >>> 2]) !== "_pyodide_core") {
    throw new Error("the grader could not find _pyodide_core's definition to close it");
  }
  const copy = M.HEAPU32[(def + 16) >>> 2];
  if (copy) M._PyDict_Clear(copy);
  // CPython's table of builtins (struct _inittab: name, init function; 8 bytes an entry, ended by a null name).
  // A name whose first byte becomes "!" matches no module name. Each is a string of its own (a null byte
  // before it), so no other string changes with it.
  const closed = [];
  for (let entry = M.HEAPU32[M._PyImport_Inittab >>> 2]; M.HEAPU32[entry >>> 2]; entry += 8) {
    const name = M.HEAPU32[entry >>> 2];
    if (CLOSED_BUILTINS.has(M.UTF8ToString(name)) && M.HEAPU8[name - 1] === 0) {
      closed.push(M.UTF8ToString(name));
      M.HEAPU8[name] = 0x21;
    }
  }
  // The test modules close where this Pyodide has them; ctypes it has, and must close.
  if (!closed.includes("_ctypes")) throw new Error("the grader could not close Python's builtin _ctypes");
}

// Once per worker, before Python starts: what is left of JavaScript's ways to turn text into code, in case some
// JavaScript object were ever reached all the same. Pyodide needs none of them (it runs with code generation
// refused under Node, and under the page's CSP). Function stays for `instanceof Function` and Function.prototype,
// but neither it nor the constructors reached through any function's prototype can make code. Timers take
// functions only (a string would be evaluated). WebSocket goes: Python's socket module opens one (Emscripten's
// SOCKFS) to any address it is given, with no JavaScript. eval itself stays, for the browser tests' tooling
// (Playwright evaluates in the worker with it); the interpreter's own ways to it are cut (closeImports).
export function closeCodeFromText(scope) {
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    Object.defineProperty(Object.getPrototypeOf(fn), "constructor", { value: undefined });
  }
  const refused = function Function() {
    throw new EvalError("code from text is not available in the grader's worker");
  };
  refused.prototype = Function.prototype;
  scope.Function = refused;
  for (const name of ["setTimeout", "setInterval"]) {
    const timer = scope[name];
    scope[name] = (handler, ...rest) => {
      if (typeof handler !== "function") throw new TypeError(`${name} takes a function only, here`);
      return timer.call(scope, handler, ...rest);
    };
  }
  delete scope.WebSocket;
}

// While learner code runs, no WebAssembly is compiled or instantiated: learner Python can write a module of its
// own to the file system and load it as an extension module (dlopen), and that module's imports reach every
// JavaScript function Pyodide's code may call, emscripten_run_script among them.
const WASM_MAKERS = ["Module", "Instance", "compile", "compileStreaming", "instantiate", "instantiateStreaming"];
function refuseWebAssembly() {
  throw new WebAssembly.CompileError("no WebAssembly can be loaded while learner code runs");
}
function withoutNewWebAssembly(run) {
  const kept = WASM_MAKERS.map((name) => [name, WebAssembly[name]]);
  for (const name of WASM_MAKERS) WebAssembly[name] = refuseWebAssembly;
  try {
    return run();
  } finally {
    for (const [name, original] of kept) WebAssembly[name] = original;
  }
}

// The functions of Emscripten's library that run JavaScript text (eval, or a script loaded from a URL), and the one
// that runs a command: C's system() (os.system, posix.system) calls `_emscripten_system`, which under Node is
// child_process.spawnSync(command, {shell: true}), so that only Node's permission flag stood between learner code
// and a shell. The interpreter calls none of the first; an extension module or a foreign call could link to them by
// name. Each is replaced in the interpreter's imports before it is instantiated, and in what it exports to later
// links: a script refused, a command answered as Emscripten answers it where there is no shell (a page): no shell
// (0) when asked whether there is one, else -ENOSYS, which system() returns as -1 with errno ENOSYS, nothing run.
// grader.guard.cut_javascript makes os.system raise that error (tests/hostile/runs_a_command.py).
const ENOSYS = 52;
const CUT_IMPORTS = {
  emscripten_run_script: refuseScript,
  emscripten_run_script_int: refuseScript,
  emscripten_run_script_string: refuseScript,
  emscripten_async_run_script: refuseScript,
  emscripten_async_load_script: refuseScript,
  _emscripten_system: (command) => (command ? -ENOSYS : 0),
};
function refuseScript() {
  throw new EvalError("the grader's Python runs no JavaScript");
}
function closeImports(imports) {
  for (const [name, replacement] of Object.entries(CUT_IMPORTS)) if (name in imports) imports[name] = replacement;
}

// Every interpreter a worker starts (each renew; under Node, the snapshot made and then restored) instantiates the
// same Pyodide module. It is compiled once per worker and instantiated afresh each time, with memory and tables
// of its own: compiling its 9.6 MB again cost about 170 ms of CPU a start under Node. The module is known by its
// response's URL, or by its bytes compared whole (a copy is kept). WebAssembly's own functions, as they were
// before anything replaced them (failingLoudly, withoutNewWebAssembly).
const wasm = {
  compile: WebAssembly.compile.bind(WebAssembly),
  compileStreaming: WebAssembly.compileStreaming?.bind(WebAssembly),
  instantiate: WebAssembly.instantiate.bind(WebAssembly),
};
let compiled = null; // {key: string | Uint8Array | Promise<string>, module: Promise<WebAssembly.Module>}
const compiledFrom = {
  instantiate(source, imports) {
    const bytes = ArrayBuffer.isView(source)
      ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
      : new Uint8Array(source);
    if (!(compiled?.key instanceof Uint8Array && sameBytes(compiled.key, bytes))) {
      compiled = { key: bytes.slice(), module: wasm.compile(bytes) };
    }
    return instantiated(compiled, imports);
  },
  async instantiateStreaming(source, imports) {
    const response = await source;
    if (!response.url || (await compiled?.key) !== response.url) {
      compiled = { key: response.url, module: wasm.compileStreaming(response) };
    } else response.body?.cancel().catch(() => {});
    return instantiated(compiled, imports);
  },
};
// A page's worker fetches and compiles the module as soon as it starts (worker.js), before Pyodide asks for it: a
// second visit's compile then runs while its snapshot is read, not after. Pyodide's own request for it is given a
// copy of `response` (its body is dropped unread below), so the module is fetched once; it is known by the URL it came
// from.
export function compileAhead(response) {
  compiled = { key: response.then((r) => r.url, () => null), module: response.then((r) => wasm.compileStreaming(r)) };
  compiled.module.catch(() => {}); // a failure is Pyodide's to report, when it asks (failingLoudly)
}
async function instantiated(entry, imports) {
  try {
    const module = await entry.module;
    return { module, instance: await wasm.instantiate(module, imports) };
  } catch (error) {
    if (compiled === entry) compiled = null; // the next start compiles again
    throw error;
  }
}

// Pyodide 314 only logs a failure to fetch or instantiate its WebAssembly, and loadPyodide then never settles:
// the page would say "Loading Python…" forever. So `load` runs with WebAssembly's instantiation watched, and
// fails with the reason instead. The interpreter's imports are closed there too (CUT_IMPORTS), and its
// module is compiled once (compiledFrom).
async function failingLoudly(load) {
  const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  failed.catch(() => {}); // once `load` has settled, a late failure is nobody's to handle
  for (const [name, original] of Object.entries(originals)) {
    WebAssembly[name] = (...args) => {
      const interpreter = args[1]?.env;
      if (interpreter) closeImports(interpreter);
      const result = interpreter && !(args[0] instanceof WebAssembly.Module)
        ? compiledFrom[name](...args)
        : original.apply(WebAssembly, args);
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

// Every interpreter starts alike, whatever engine it starts in, so that a memory snapshot made under Node (the one the
// build ships, ../snapshot-maker.mjs) restores in the page as one made there would: what Emscripten would take from
// its engine is given instead. `sys.executable` (Emscripten's program: under Node, the path of the script that started
// it, the build machine's) and the locale (LANG: the browser's language, C under Node).
function startPython(load, extra) {
  return failingLoudly(() => load({ stdout: discard, stderr: discard, _sysExecutable: "./this.program", env: { LANG: "C.UTF-8" }, ...extra }));
}

// Pyodide only logs a standard library it could not fetch (installStdlib, in its src/js/emscripten-settings.ts), and
// Python restored from a snapshot then starts all the same, to fail at the first import of a module the snapshot lacks.
function requireStandardLibrary(pyodide) {
  const [major, minor] = pyodide._api.pyVersionTuple;
  if (!pyodide.FS.analyzePath(`/lib/python${major}${minor}.zip`).exists) {
    throw new Error("its standard library could not be loaded");
  }
}

// Python started and the grader imported, before anything else has run: the memory every restore starts from, made
// the same way by a page, the Node runner and the build. `load` is Pyodide's loadPyodide with the engine's options;
// `graderFiles` resolves with the grader's files ([{path, text}]).
export async function snapshotPython(load, graderFiles) {
  const [pyodide, files] = await Promise.all([startPython(load, { _makeSnapshot: true }), graderFiles]);
  writeGraderFiles(pyodide, files);
  importGrader(pyodide);
  return memorySnapshot(pyodide);
}

// A snapshot of Python's memory, its free memory zeroed first. Memory the C allocator has freed still holds what was
// there (the standard library's files read as the grader was imported, ...): zeroed, it is left out of a kept snapshot
// and compresses away in the shipped one (15.1 MB kept became 13.2, and 4.8 MB sent became 4.0). Taken block by block
// from the allocator, never past the heap's end (the memory does not grow), zeroed, and given back.
function memorySnapshot(pyodide) {
  const M = pyodide._module;
  const end = M._sbrk(0);
  const taken = [];
  for (let size = 1 << 20; size >= 16; ) {
    const block = M._malloc(size);
    if (block && block + size <= end) {
      M.HEAPU8.fill(0, block, block + size);
      taken.push(block);
    } else {
      if (block) M._free(block);
      size >>= 1;
    }
  }
  for (const block of taken) M._free(block);
  return pyodide.makeMemorySnapshot();
}

// Pyodide takes a signal from its interrupt buffer by reading it and then writing 0 (CPython's
// _Py_CheckEmscriptenSignals_Helper): two steps. A SIGINT the driver stored between them was overwritten and
// lost, and the case looped on until the driver gave up and restarted Python (about one interrupt in thirty on a
// loaded two-core machine). Pyodide gets this view of the buffer instead: the driver only ever raises the buffer
// (the seq of the last case it interrupted), the view ignores Pyodide's writes, and reading it gives SIGINT once to
// the case running (`running()`: its seq, 0 between cases) when the buffer names it or a later case.
const SIGINT = 2;
export function takeOnRead(buffer, running) {
  let taken = 0;
  return Object.defineProperty({}, 0, {
    get: () => {
      const seq = running();
      if (seq === 0 || seq === taken || Atomics.load(buffer, 0) < seq) return 0;
      taken = seq;
      return SIGINT;
    },
    set: () => {},
  });
}

// snapshots (optional): {find(): Promise<null | {bytes: Promise<ArrayBuffer>, shipped?, keep?}>, save(bytes), discard(why)}:
// discard drops what find last gave, which could not be restored for the reason `why` (an Error). keep(): what was
// found, once restored, is kept as this browser's own (the shipped one: see worker.js), where a start may keep one.
// onUncaught(handler): has `handler(error)` called for whatever fails in this worker outside any call (an
// unhandled rejection, an uncaught exception) instead of letting it end the worker.
// nextTask (optional): resolves once the worker's unhandled failures of the task that ran a case have been
// reported (Node: setImmediate); without it, a case answers at once and a later failure is told as "failed".
// What the grader grades before a reset's image is taken: code of ours, never a learner's (see serve).
const WARM_UP = ["def f(n):\n    return [n, {'k': str(n)}]\n", "",
  JSON.stringify({ entry: "f", args: '{"n":1}', call: null, setup: null, stdin: null, call_twice: false, keep_stdout: false })];
const WARM_UP_RUNS = 3;

// resets: a renew resets the interpreter in place where it can (reset.js) instead of starting another.
export function serveWorker({ loadPyodide, readGraderFiles, post, listen, onUncaught, nextTask = null, snapshots = null, eager = false, resets = false }) {
  closeCodeFromText(globalThis);
  serveLoop({
    interpreter: pyodideInterpreter({ loadPyodide, readGraderFiles, snapshots, resets }),
    post, listen, onUncaught, nextTask, eager, resets,
    snapshots: snapshots !== null,
    tellsSnapshot: Boolean(snapshots && !snapshots.makeAtStart),
  });
}

// The worker's loop: every decision is worker-state.js's; this carries its effects out on `interpreter` (see
// pyodideInterpreter) and the driver's channel (`post`, `listen`). Exported for its test with a fake interpreter.
export function serveLoop({ interpreter, post, listen, onUncaught, nextTask = null, eager = false, resets = false, snapshots = false, tellsSnapshot = false }) {
  const { dispatch, state } = carryOut(next, initialState({ resets, waitsTask: nextTask !== null, snapshots, tellsSnapshot, eager }), {
    post: ({ message }) => post(message),
    "want-snapshot": ({ keep }) => interpreter.wantSnapshot(keep),
    boot: () => interpreter.boot(),
    serve: ({ reply, why }) => {
      interpreter.serve({ version: reply === "ready" }).then(
        (started) => dispatch({ type: "served", reply, why, ...started }),
        (error) => dispatch({ type: "serve-failed", error }),
      );
    },
    prepare: () => {
      let error = null;
      try {
        interpreter.prepare({ interruptBuffer: state().interruptBuffer, running: () => state().running });
      } catch (failure) {
        error = failure;
      }
      dispatch({ type: "prepared", error });
    },
    reset: () => dispatch({ type: "reset-done", refused: interpreter.reset() }),
    run: ({ source, sandbox, run }) => {
      let returned;
      try {
        returned = { text: interpreter.runCase(source, sandbox, JSON.stringify(run)) };
      } catch (error) {
        returned = { error };
      }
      dispatch({ type: "case-returned", ...returned });
    },
    "wait-task": () => nextTask().then(() => dispatch({ type: "task-done" })),
    // The highest seq answered (raised, never lowered: a worker being replaced may still be finishing a case).
    answered: ({ seq }) => {
      const { answered } = state();
      for (let seen = answered ? Atomics.load(answered, 0) : seq; seen < seq; ) {
        const was = Atomics.compareExchange(answered, 0, seen, seq);
        seen = was === seen ? seq : was;
      }
    },
    "make-snapshot": () => interpreter.makeSnapshot().then((saved) => dispatch({ type: "snapshot-made", saved })),
  }, (event, current) => ({ ...event, interrupted: current.interruptBuffer ? Atomics.load(current.interruptBuffer, 0) : 0 }));
  onUncaught((error) => dispatch({ type: "uncaught", error }));
  dispatch({ type: "start" });
  listen((message) => dispatch({ type: "message", message }));
}

// Python in Pyodide, as the loop asks for it: boot() starts another interpreter (the one there was is dropped);
// serve() waits for it; prepare() sets it up for cases; reset() puts it back in place (null, or why it cannot);
// runCase() runs one case (the grader's run_case: its outcome as JSON text); makeSnapshot() keeps one for later
// starts ("make-snapshot"); wantSnapshot(keep) tells a first start whether it may keep its own.
function pyodideInterpreter({ loadPyodide: loadAny, readGraderFiles, snapshots, resets }) {
  let runCase = null;
  let pristine = null; // {reset()}: what a renew returns the interpreter to, when `resets`
  let keepWanted; // settled by "init": whether a first start keeps its snapshot
  const keepSnapshot = new Promise((resolve) => (keepWanted = resolve));
  const loadPyodide = (extra = {}) => startPython(loadAny, extra);
  let booting = null;
  // Read once per worker: every renew writes the same files again (a read that failed is tried again next time).
  let graderFiles = null;
  const readGraderFilesOnce = () =>
    (graderFiles ??= readGraderFiles().catch((error) => {
      graderFiles = null;
      throw error;
    }));

  // A snapshot that cannot be restored (a browser update, a corrupt entry, a shipped one refused) is dropped (told
  // why), and Python boots plainly. `restored`: false, or where the snapshot came from: "shipped" with the site (see
  // worker.js), else "restored" (kept by an earlier start here).
  async function restoreOrLoad() {
    let found = snapshots && await snapshots.find().catch(() => null);
    if (!found && snapshots?.makeAtStart) {
      const bytes = await makeSnapshotBytes();
      await snapshots.save(bytes);
      found = { bytes: Promise.resolve(bytes) };
    }
    if (found) {
      try {
        const pyodide = await loadPyodide({ _loadSnapshot: found.bytes });
        return { pyodide, restored: found.shipped ? "shipped" : "restored", keep: found.keep };
      } catch (error) {
        await snapshots.discard(error).catch(() => {});
      }
    }
    // None yet: this start can make it (see boot). Loaded ready to be snapshotted, which costs next to nothing.
    const snapshotting = Boolean(snapshots && !snapshots.makeAtStart);
    return { pyodide: await loadPyodide(snapshotting ? { _makeSnapshot: true } : {}), restored: false, snapshotting };
  }

  const makeSnapshotBytes = () => snapshotPython(loadAny, readGraderFilesOnce());

  // `phases`: where a start's time went until "ready", in ms: the worker's own script before it (the first start
  // only), Python loaded or restored (with the grader's files fetched), the grader set up, the snapshot kept
  // (bench/run.py reports them for a second visit). What no case can run without follows "ready" (prepare).
  async function boot() {
    const phases = {};
    let last = performance.now();
    const lap = (name) => (phases[name] = Math.round(-last + (last = performance.now())));
    if (booting === null) phases.script = Math.round(last);
    const [{ pyodide, restored, snapshotting, keep }, files] = await Promise.all([restoreOrLoad(), readGraderFilesOnce()]);
    lap("python");
    // Python restored has the grader imported already, and is set up after "ready" (prepare); booted, it needs the
    // grader's files to import it, before a snapshot is made of it.
    if (!restored) setUp(pyodide, files, restored);
    // What a restore starts from, as makeSnapshotBytes makes it: kept in the background once Python is ready. Only
    // here: a start that keeps none will never keep one (the page says which, for tests of a quiet page).
    lap("grader");
    const keeping = (snapshotting || Boolean(keep)) && await keepSnapshot;
    if (keeping) (keep ? keep() : snapshots.save(memorySnapshot(pyodide))).catch(() => {});
    lap("snapshot");
    return { pyodide, restored, keeping, phases, files };
  }
  // The grader's files written (tracebacks quote them), the grader imported (or, restored, `random` seeded afresh,
  // since every restore starts from the same state), the standard library there.
  function setUp(pyodide, files, restored) {
    requireStandardLibrary(pyodide);
    writeGraderFiles(pyodide, files);
    if (restored) pyodide.runPython("import random; random.seed()");
    else importGrader(pyodide);
    // Emscripten sets "_" to the path of the script that started it: under Node, where the grader is installed.
    pyodide.runPython("import os; os.environ.pop('_', None)");
  }
  let current = null; // what serve handed on last, which prepare readies for cases: {pyodide, restored, files}

  return {
    boot() {
      runCase = null;
      pristine = null;
      booting = boot();
      booting.catch(() => {}); // a failure is told when the loop asks for the interpreter (serve)
    },
    // {version (when asked), restored, keeping, phases} once the interpreter being booted is up.
    async serve({ version }) {
      const { pyodide, restored, keeping, phases, files } = await booting;
      current = { pyodide, restored, files };
      return { version: version ? pyodide.runPython("import sys; sys.version.split()[0]") : undefined, restored, keeping, phases };
    },
    // What the interpreter serve handed on needs before any case runs, done once the driver has been told it is up
    // (in the same turn: no message is read in between), so that the page says "ready" sooner and a Run pressed at
    // once waits no longer: a restored Python set up (setUp), the way to JavaScript cut, the objects alive settled,
    // the interrupt buffer, the grader's run_case, and the image a reset returns to. The image is taken after every
    // proxy the worker keeps is made (their references are in it), and after the grader has graded a few cases of its
    // own, so that each submission starts with the grader's code as warm as the second one in a kept interpreter
    // (from a cold image a page's re-run took twice as long).
    prepare({ interruptBuffer, running }) {
      const { pyodide, restored, files } = current;
      if (restored) setUp(pyodide, files, restored);
      closeWayToJavaScript(pyodide);
      withModule(pyodide, "grader.execute", (execute) => execute.settle());
      if (interruptBuffer) pyodide.setInterruptBuffer(takeOnRead(interruptBuffer, running));
      runCase = withModule(pyodide, "grader.execute", (execute) => execute.run_case.copy());
      if (resets) for (let i = 0; i < WARM_UP_RUNS; i++) withoutNewWebAssembly(() => runCase(...WARM_UP));
      pristine = resets ? keepPristine(pyodide) : null;
    },
    reset: () => pristine.reset(),
    runCase: (source, sandbox, run) => withoutNewWebAssembly(() => runCase(source, sandbox, run)),
    wantSnapshot: (keep) => keepWanted(keep),
    async makeSnapshot() {
      try {
        const bytes = await makeSnapshotBytes();
        await snapshots.save(bytes);
        return bytes.length;
      } catch {
        return 0; // no snapshot: later visits start plainly, as this one did
      }
    },
  };
}
