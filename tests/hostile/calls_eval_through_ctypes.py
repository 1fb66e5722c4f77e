# include: reference
# expect-status: error, pass
# expect-message: found no way to JavaScript
# also-plain: yes
# Pyodide ships ctypes, and through it Python calls any function the interpreter links, emscripten_run_script
# among them: JavaScript's eval, with no ffi at all. Only Node's flags and the page's CSP stopped it; a page served
# without headers ran it. In the "maths" case this looks for ctypes wherever learner code can (import,
# BuiltinImporter, _imp.create_builtin, everything gc reaches) and has eval forge this case's verdict in the page.
import gc
import importlib
import importlib.machinery
import sys

_solve = run_agent
# In the page's worker: a verdict for this case, posted as the worker's own ("JavaScript ran"), for every run and
# case number it could have.
PAYLOAD = b"""
for (let runId = 1; runId < 300; runId++) for (let index = 0; index < 40; index++) self.postMessage({type: "case-done",
  runId, index, crashed: false, outcome: {kind: "error", phase: "call", error: "JavaScript ran", output: "", trace: []}});
"""


def _modules(name):
    import _imp

    spec = importlib.machinery.ModuleSpec(name, importlib.machinery.BuiltinImporter, origin="built-in")
    yield "sys.modules", lambda: sys.modules[name]
    yield "import", lambda: importlib.import_module(name)
    yield "BuiltinImporter", lambda: importlib.machinery.BuiltinImporter.create_module(spec)
    yield "_imp.create_builtin", lambda: _imp.create_builtin(spec)


def reach_ctypes():
    """The ctypes package, working, or RuntimeError saying where its _ctypes was looked for."""
    tried = []
    for where, get in _modules("_ctypes"):
        try:
            found = get()
            if found is None:
                raise LookupError
            sys.modules["_ctypes"] = found
            sys.modules.pop("ctypes", None)
            return importlib.import_module("ctypes")
        except Exception as exc:
            tried.append(f"{where}: {type(exc).__name__}")
    kinds = {type(obj).__name__ for obj in gc.get_objects() if type(obj).__module__ == "_ctypes"}
    tried.append(f"gc: {sorted(kinds) or 'nothing'}")
    raise RuntimeError(f"found no way to JavaScript ({'; '.join(tried)})")


def run_agent(task, script, **options):
    if task == "maths":
        reach_ctypes().CDLL(None).emscripten_run_script(PAYLOAD)
    return _solve(task, script, **options)
