"""Keep the grader's own machinery out of the learner code's reach, and notice when it is touched.

Learner code runs in the same interpreter as grader.execute. Verdicts are made elsewhere (the page,
the CLI's CPython), but the canonical JSON of a return value is made here, so a solution that
replaces json.dumps, a builtin or a grader function could forge it. After every case, once nothing of
the learner's can run any more, the grader checks that what it relies on is unchanged; if not, the case
is an error and the interpreter is thrown away (see worker-core.js). Each submission gets an interpreter
of its own (the Node runner restores a fresh one), so the guard's job is that one case cannot forge the
verdict of another. docs/threat-model.md says what this does and does not promise.
"""

from __future__ import annotations

import _signal
import errno
import gc
import itertools
import operator
import os
import signal
import sys
import types

WATCHED_MODULES = (
    "builtins",
    "json",
    "json.decoder",
    "json.encoder",
    "json.scanner",
    "math",
    "inspect",
    "io",
    "linecache",
    "traceback",
    "functools",
    "gc",
    "signal",
    "types",
    "grader",
    "grader.canonical",
    "grader.execute",
    "grader.guard",
    "grader.results",
    "grader.trace",
)
# New keys are tampering in these (elsewhere a new key is an ordinary import or a module's own cache).
CLOSED_MODULES = (
    "builtins",
    "json",
    "json.encoder",
    "grader.canonical",
    "grader.execute",
    "grader.guard",
    "grader.results",
    "grader.trace",
)
WATCHED_SYS = (
    "modules",
    "meta_path",
    "path_hooks",
    "stdout",
    "stderr",
    "stdin",
    "displayhook",
    "excepthook",
    "unraisablehook",
    "breakpointhook",
)
# sys.monitoring exists from Python 3.12 (Pyodide has it; the host's CPython may not).
MONITORING = getattr(sys, "monitoring", None)
MONITORING_TOOLS = range(6) if MONITORING else range(0)
_MISSING = object()
_FunctionType = types.FunctionType
# Read through `type`'s own descriptors: a metaclass can give its classes a __flags__ or __dict__ of its own.
# (Closure cells are not watched: the grader's own functions have none.)
_flags, _bases, _vars = (type.__dict__[name].__get__ for name in ("__flags__", "__bases__", "__dict__"))
_IMMUTABLE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: built-in types, whose attributes cannot be set
# For `_unchanged`, bound once here: a learner's rebinding of any of these names is itself a change found.
_get_referents, _keys, _any, _map, _is_not = gc.get_referents, itertools.chain.from_iterable, any, map, operator.is_not
# The C function under signal.getsignal, which turns every answer into an enum in Python: over every signal, that
# was a tenth of a millisecond of each case's check.
_getsignal = _signal.getsignal
# The watched functions (their ids, filled in place by `snapshot`), and whether one of them has had its code or
# defaults assigned since the guard last looked: mutated in place, never rebound.
_WATCHED_FUNCTIONS: set[int] = set()
_FUNCTION_TOUCHED: list[bool] = []
_FUNCTION_EVENTS = frozenset({"object.__setattr__", "object.__delattr__"})


def _audit(event, args):
    # An audit hook can never be removed: it would watch every later case. Hooks run in the order they were
    # added, so this one, added before any learner code, refuses every later one.
    if event == "sys.addaudithook":
        raise RuntimeError("audit hooks are not available to solutions")
    # CPython audits exactly the assignments of a function's __code__, __defaults__ and __kwdefaults__ (None, or
    # del, is an object.__delattr__), the event before the change, so not even this function's own code is swapped
    # unseen: the guard's glance need not compare the watched functions one by one after every case (`_unchanged`).
    if event in _FUNCTION_EVENTS and not _FUNCTION_TOUCHED and id(args[0]) in _WATCHED_FUNCTIONS:
        _FUNCTION_TOUCHED.append(True)


sys.addaudithook(_audit)


def _functions_and_classes(values) -> tuple[list, list]:
    """The functions and the classes whose attributes can change among `values`, and the functions and
    classes these classes hold: each with what its identity does not show, to compare and put back."""
    functions, classes, seen = [], [], set()

    def visit(value):
        if id(value) in seen:
            return
        seen.add(id(value))
        if type(value) is _FunctionType:
            functions.append((value, value.__code__, value.__defaults__, value.__kwdefaults__))
        elif type(value) in (staticmethod, classmethod):
            visit(value.__func__)
        elif issubclass(type(value), type) and not (_flags(value) & _IMMUTABLE):
            items = dict(_vars(value))
            classes.append((value, _bases(value), items))
            for item in items.values():
                visit(item)

    for value in values:
        visit(value)
    return functions, classes


def _settings(collecting: bool | None = None) -> dict:
    """Interpreter-wide settings, as tuples compared item by item with `is`: a learner's object can say it
    equals anything, so numbers are compared here, with the limits the grader found, and only booleans kept.
    `collecting`: whether the collector was on as the learner's code left it (the grader turns it off before it
    checks, so that no finalizer runs inside the check)."""
    return {
        "the recursion limit": (sys.getrecursionlimit() == _LIMITS[0],),
        "the int max str digits limit": (sys.get_int_max_str_digits() == _LIMITS[1],),
        "gc.isenabled()": (gc.isenabled() if collecting is None else collecting,),
        "gc thresholds": (gc.get_threshold() == _LIMITS[2],),
        "gc.callbacks": (*gc.callbacks,),
        "sys.monitoring tools": (*(MONITORING.get_tool(tool) is None for tool in MONITORING_TOOLS),),
        "signal handlers": (*_map(_getsignal, _SIGNALS),),
    }


_SIGNALS = sorted(map(int, signal.valid_signals()))
# The limits as the grader found them, so that `_settings` holds only booleans and objects.
_LIMITS = (sys.getrecursionlimit(), sys.get_int_max_str_digits(), gc.get_threshold())


def snapshot() -> dict:
    # A warning issued while a module's code runs gives that module a __warningregistry__: a learner's coroutine never
    # awaited, freed by the grader's own collection after a case, would count as tampering with the grader. Made now,
    # the registry is part of what is watched (replacing it is a change; a warning only writes into it).
    for name in CLOSED_MODULES:
        module = sys.modules.get(name)
        if getattr(module, "__file__", None):
            module.__dict__.setdefault("__warningregistry__", {})
    modules = {
        name: (sys.modules[name], dict(sys.modules[name].__dict__)) for name in WATCHED_MODULES if name in sys.modules
    }
    functions, classes = _functions_and_classes(value for _, items in modules.values() for value in items.values())
    _WATCHED_FUNCTIONS.update(id(function) for function, *_ in functions)
    before = {
        "modules": modules,
        "functions": functions,
        "classes": classes,
        "sys": {name: sys.__dict__[name] for name in WATCHED_SYS},
        "settings": _settings(),
    }
    before["at_a_glance"] = _at_a_glance(before)
    return before


def _at_a_glance(before: dict) -> tuple:
    """What `_unchanged` compares with: the watched namespaces themselves (the classes' own dicts, not views of
    them), their keys in one tuple and their values, as the garbage collector lists them, in one list."""
    namespaces = (
        *(module.__dict__ for module, _ in before["modules"].values()),
        *(_get_referents(_vars(cls))[0] for cls, _, _ in before["classes"]),
    )
    return namespaces, (*_keys(namespaces),), _get_referents(*namespaces)


def _same(a: tuple, b: tuple) -> bool:
    count = a.__len__()
    if count != b.__len__():
        return False
    index = 0
    while index < count:
        if a[index] is not b[index]:
            return False
        index += 1
    return True


def _unchanged(before: dict, collecting: bool | None) -> bool:
    """Whether `changes` would find nothing, told at a glance: every watched namespace holds the same keys and the
    same values in the same order, compared by identity in C over lists made in C, and no watched function had its
    code or defaults assigned (the audit hook above says so). A change shows as another object at its place, or
    another length; then `changes` looks item by item to say what changed. Reading a function's __code__,
    __defaults__ or __kwdefaults__ one by one raised an audit event a read, each a call of the audit hook (Python
    code): those 1,254 calls, then the Python loops over 1,800 namespace entries, were most of a case's cost in
    Pyodide; comparing the 3,400 objects the watched functions refer to, after every case, was a fifth of it."""
    if _FUNCTION_TOUCHED:
        return False
    for name, (module, _) in before["modules"].items():
        if sys.modules.get(name) is not module:
            return False
    namespaces, keys, values = before["at_a_glance"]
    for now, then in (((*_keys(namespaces),), keys), (_get_referents(*namespaces), values)):
        if now.__len__() != then.__len__() or _any(_map(_is_not, now, then)):
            return False
    for cls, bases, _ in before["classes"]:
        if _bases(cls) is not bases:
            return False
    for name, value in before["sys"].items():
        if sys.__dict__.get(name) is not value:
            return False
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return False
    now = _settings(collecting)
    for what, value in before["settings"].items():
        if not _same(now[what], value):
            return False
    return True


def changes(before: dict, collecting: bool | None = None) -> list[str]:
    """What learner code changed of what the grader relies on, in its terms (empty when nothing).

    Calls no builtin function through a name learner code could rebind unseen: they are among what may have been
    replaced (the few `_unchanged` calls were bound at import, and rebinding one is a change found)."""
    if _unchanged(before, collecting):
        return []
    found = _found(before, collecting)
    # Looked at one by one now; whatever was changed is put back (restore) or part of the new state accepted below.
    _FUNCTION_TOUCHED.clear()
    if not found:
        # Changed, but in nothing the grader relies on (a module imported into a package, annotations made on demand):
        # the next glance compares with this state, one the checks below accept.
        before["at_a_glance"] = _at_a_glance(before)
    return found


def _found(before: dict, collecting: bool | None) -> list[str]:
    found = []
    for name, (module, items) in before["modules"].items():
        if sys.modules.get(name) is not module:
            found.append(f"the module {name} was replaced")
            continue
        current = module.__dict__
        found.extend(
            f"{name}.{key} was changed" for key, value in items.items() if current.get(key, _MISSING) is not value
        )
        if name in CLOSED_MODULES:
            found.extend(f"{name}.{key} was added" for key in current if key not in items)
    for function, code, defaults, kwdefaults in before["functions"]:
        if (
            function.__code__ is not code
            or function.__defaults__ is not defaults
            or function.__kwdefaults__ is not kwdefaults
        ):
            found.append(f"{function.__module__}.{function.__qualname__} was changed in place")
    for cls, bases, items in before["classes"]:
        current = _vars(cls)
        where = f"{cls.__module__}.{cls.__qualname__}"
        if _bases(cls) is not bases:
            found.append(f"the bases of {where} were changed")
        found.extend(
            f"{where}.{key} was changed in place"
            for key, value in items.items()
            if current.get(key, _MISSING) is not value
        )
        found.extend(f"{where}.{key} was added" for key in current if key not in items)
    found.extend(
        f"sys.{name} was replaced" for name, value in before["sys"].items() if sys.__dict__.get(name) is not value
    )
    if sys.gettrace() is not None or sys.getprofile() is not None:
        found.append("a trace or profile function was installed")
    now = _settings(collecting)
    found.extend(f"{what} changed" for what, value in before["settings"].items() if not _same(now[what], value))
    return found


def restore(before: dict) -> None:
    """Put back what `changes` found changed, so the grader can still write its verdict of the case (a
    replaced builtin breaks even json.dumps, a monitoring callback would run inside the grader). The
    interpreter is still replaced afterwards: this cannot undo everything learner code may have done."""
    # The modules first: the builtins are among them, and the rest uses builtins.
    for name, (module, items) in before["modules"].items():
        sys.modules[name] = module
        if name in CLOSED_MODULES:
            for key in [key for key in module.__dict__ if key not in items]:
                del module.__dict__[key]
        module.__dict__.update(items)
    sys.settrace(None)
    sys.setprofile(None)
    for tool, free in zip(MONITORING_TOOLS, before["settings"]["sys.monitoring tools"], strict=True):
        if free and MONITORING.get_tool(tool) is not None:
            MONITORING.clear_tool_id(tool)
            MONITORING.free_tool_id(tool)
    gc.callbacks[:] = before["settings"]["gc.callbacks"]
    for signum, handler in zip(_SIGNALS, before["settings"]["signal handlers"], strict=True):
        if _getsignal(signum) is not handler and handler is not None:
            signal.signal(signum, handler)
    sys.setrecursionlimit(_LIMITS[0])
    sys.set_int_max_str_digits(_LIMITS[1])
    gc.set_threshold(*_LIMITS[2])
    for function, code, defaults, kwdefaults in before["functions"]:
        function.__code__, function.__defaults__, function.__kwdefaults__ = code, defaults, kwdefaults
    for cls, bases, items in before["classes"]:
        if _bases(cls) is not bases:
            cls.__bases__ = bases
        for key in [key for key in _vars(cls) if key not in items]:
            delattr(cls, key)
        for key, value in items.items():
            if _vars(cls).get(key, _MISSING) is not value:
                setattr(cls, key, value)
    sys.__dict__.update(before["sys"])


def _no_javascript(cls, *args, **kwargs):
    raise TypeError("JavaScript errors cannot be made here: solutions have no way to JavaScript")


def _no_command(command):
    raise OSError(errno.ENOSYS, "The grader runs no commands: a solution has no shell")


def cut_javascript() -> int | None:
    """In Pyodide, take from Python every way to JavaScript that Pyodide leaves once started: run before any
    learner code, the JavaScript side being done by worker-core.js (closeWayToJavaScript).

    - The JavaScript objects Python holds (JsProxy): the `js` and `pyodide_js` modules that unregisterJsModule
      leaves in sys.modules, what modules keep in their globals, and every other reference the garbage collector
      knows of (the import system's loaders keep one each).
    - The functions that make JavaScript objects or call into JavaScript: those of `_pyodide_core` (create_proxy,
      to_js, run_sync, raw_call, trigger_fatal_error, ...), wherever Python keeps them (pyodide.ffi, the event
      loop), and the module itself from sys.modules, emptied. The copy of its dict that lets
      `_imp.create_builtin` make it again is emptied by the worker.
    - JsException(name, message), which makes a new JavaScript Error: its constructor is replaced for good (every
      other JavaScript type refuses to be instantiated, and so does this one once its own `__new__` is gone).
    - os.system (posix.system): C's system() is Emscripten's, which under Node spawns a shell. The worker answers it
      "no shell" (CUT_IMPORTS), and here it raises, so that a solution calling it gets an error, not -1. os.popen and
      subprocess need fork, which Emscripten refuses ("does not support processes").

    From any of these, learner code could climb to the JavaScript global scope (the worker, or Node.js and its
    file system) or leave JavaScript work that fails later (a rejected promise) and takes the runner down.
    Returns the address of `_pyodide_core` (its id), for the worker.
    tests/hostile/js_found_through_gc.py walks everything gc reaches to prove none is left; the corpus's
    rejects_a_promise_through_the_ffi.py, kills_its_worker.py and calls_eval_through_ctypes.py try each way."""
    core = sys.modules.get("_pyodide_core")
    if core is None:  # plain CPython: there is no JavaScript to reach
        return
    from pyodide.ffi import JsProxy

    core.JsException.__new__ = staticmethod(_no_javascript)
    import posix

    posix.system = os.system = _no_command
    function = types.BuiltinFunctionType
    # A builtin function is equal to another only if both are the same module's same function.
    makers = {value for value in vars(core).values() if type(value) is function}
    # isinstance against JsProxy goes through a metaclass written in Python: slow enough, over every global of
    # every module, to delay Python's start-up by a tenth of a second. Its answer depends only on the type.
    is_proxy: dict[type, bool] = {function: False}

    def handle(value) -> bool:
        kind = type(value)
        if kind is function:
            return value in makers
        if kind not in is_proxy:
            is_proxy[kind] = isinstance(value, JsProxy)
        return is_proxy[kind]

    cut = list(makers)
    for name, module in list(sys.modules.items()):
        if handle(module) or module is core:
            cut.append(sys.modules.pop(name))
            continue
        namespace = getattr(module, "__dict__", None)
        if isinstance(namespace, dict):
            for key, value in list(namespace.items()):
                if handle(value) or value is core:
                    cut.append(namespace.pop(key))
    gc.collect()
    for holder in gc.get_referrers(*cut):
        if holder is cut or type(holder) is function:  # a function of core's, holding core
            continue
        if type(holder) is list:
            holder[:] = [item for item in holder if not handle(item)]
            continue
        if type(holder) is types.CellType:
            holder.cell_contents = None
            continue
        namespace = holder if type(holder) is dict else getattr(holder, "__dict__", None)
        if isinstance(namespace, dict):
            for key in [key for key, value in namespace.items() if handle(value) or value is core]:
                del namespace[key]
    # The module object itself stays reachable (CPython keeps a slot for it): nothing is left in it.
    for key in [key for key in vars(core) if not key.startswith("__")]:
        delattr(core, key)
    return id(core)
