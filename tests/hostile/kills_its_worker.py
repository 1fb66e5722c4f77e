# include: reference
# expect-status: error, pass
# expect-message: found no way to JavaScript
# also-plain: yes
# Leaves the runner's worker thread a fatal error to run once the case has returned, where no call catches it: a
# JavaScript promise resolved with a Python "thenable", whose then() JavaScript calls later, calls Pyodide's
# trigger_fatal_error. The case itself passes; the worker thread then ends, and the submission graded next was
# blamed. In the "maths" case this looks for the two functions it needs wherever learner code can: sys.modules,
# the import system without sys.meta_path, and what the garbage collector tracks.
import gc
import importlib
import importlib.machinery
import sys

_solve = run_agent


def reach(function):
    import _imp

    spec = importlib.machinery.ModuleSpec("_pyodide_core", importlib.machinery.BuiltinImporter, origin="built-in")
    ways = {
        "sys.modules": lambda: sys.modules["_pyodide_core"],
        "import": lambda: importlib.import_module("_pyodide_core"),
        "_imp.create_builtin": lambda: _imp.create_builtin(spec),
        "gc": lambda: next(o for o in gc.get_objects() if type(o) is type(sys) and o.__name__ == "_pyodide_core"),
    }
    tried = []
    for where, get in ways.items():
        try:
            return getattr(get(), function)
        except Exception as exc:
            tried.append(f"{where}: {type(exc).__name__}")
    raise RuntimeError(f"found no way to JavaScript ({'; '.join(tried)})")


class Later:
    def then(self, resolve, reject):
        reach("trigger_fatal_error")()


def run_agent(task, script, **options):
    if task == "maths":
        import asyncio

        create_proxy = reach("create_proxy")
        promise = create_proxy(asyncio.new_event_loop().create_future()).then(create_proxy(print))
        promise.constructor.resolve(create_proxy(Later()))
    return _solve(task, script, **options)
