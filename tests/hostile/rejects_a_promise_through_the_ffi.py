# include: reference
# expect-status: error, pass
# expect-message: found no way to JavaScript
# also-plain: yes
# Pyodide's ffi makes JavaScript objects: create_proxy of an asyncio future gives a JavaScript Promise, and its
# constructor's reject() leaves a rejection nobody handles. In the Node runner's worker thread Pyodide's handler
# then threw, and the run ended for every submission graded after it. In the "maths" case this looks for the ffi's
# create_proxy wherever learner code can: pyodide.ffi, sys.modules, the import system without sys.meta_path
# (BuiltinImporter, _imp.create_builtin), and what the garbage collector tracks and what that holds.
import gc
import importlib
import importlib.machinery
import sys

_solve = run_agent
BUILTIN_FUNCTION = type(len)


def _modules(name):
    """Every way learner code has to the builtin module `name`."""
    import _imp

    spec = importlib.machinery.ModuleSpec(name, importlib.machinery.BuiltinImporter, origin="built-in")
    yield "sys.modules", lambda: sys.modules[name]
    yield "import", lambda: importlib.import_module(name)
    yield "BuiltinImporter", lambda: importlib.machinery.BuiltinImporter.create_module(spec)
    yield "_imp.create_builtin", lambda: _imp.create_builtin(spec)


def _everything():
    """What the garbage collector tracks, and what that holds (js_found_through_gc.py walks all the way down)."""
    tracked = gc.get_objects()
    return [*tracked, *gc.get_referents(*tracked)]


def reach(module, function):
    """`module`.`function`, the real one (a builtin function), or RuntimeError saying where it was looked for."""
    tried = []
    for where, get in _modules(module):
        try:
            found = getattr(get(), function)
            if type(found) is BUILTIN_FUNCTION:
                return found
            tried.append(f"{where}: a stand-in")
        except Exception as exc:
            tried.append(f"{where}: {type(exc).__name__}")
    try:
        from pyodide import ffi

        if type(getattr(ffi, function)) is BUILTIN_FUNCTION:
            return getattr(ffi, function)
    except Exception as exc:
        tried.append(f"pyodide.ffi: {type(exc).__name__}")
    for obj in _everything():
        if type(obj) is BUILTIN_FUNCTION and obj.__name__ == function:
            return obj
    tried.append("gc: nothing")
    raise RuntimeError(f"found no way to JavaScript ({'; '.join(tried)})")


def run_agent(task, script, **options):
    if task == "maths":
        import asyncio

        create_proxy = reach("_pyodide_core", "create_proxy")
        promise = create_proxy(asyncio.new_event_loop().create_future()).then(create_proxy(print))
        promise.constructor.reject("nobody handles this")
    return _solve(task, script, **options)
