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

import gc
import operator
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
# For `_functions_unchanged`, bound once here: a learner's rebinding of any of these names is itself a change found.
_get_referents, _any, _map, _is_not = gc.get_referents, any, map, operator.is_not


def _refuse_audit_hooks(event, args):
    # An audit hook can never be removed: it would watch every later case. Hooks run in the order they were
    # added, so this one, added before any learner code, refuses every later one.
    if event == "sys.addaudithook":
        raise RuntimeError("audit hooks are not available to solutions")


sys.addaudithook(_refuse_audit_hooks)


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


def _settings() -> dict:
    """Interpreter-wide settings, as tuples compared item by item with `is`: a learner's object can say it
    equals anything, so numbers are compared here, with the limits the grader found, and only booleans kept."""
    return {
        "the recursion limit": (sys.getrecursionlimit() == _LIMITS[0],),
        "the int max str digits limit": (sys.get_int_max_str_digits() == _LIMITS[1],),
        "gc.isenabled()": (gc.isenabled(),),
        "gc thresholds": (gc.get_threshold() == _LIMITS[2],),
        "gc.callbacks": (*gc.callbacks,),
        "sys.monitoring tools": (*(MONITORING.get_tool(tool) is None for tool in MONITORING_TOOLS),),
        "signal handlers": (*(signal.getsignal(signum) for signum in _SIGNALS),),
    }


_SIGNALS = sorted(signal.valid_signals())
# The limits as the grader found them, so that `_settings` holds only booleans and objects.
_LIMITS = (sys.getrecursionlimit(), sys.get_int_max_str_digits(), gc.get_threshold())


def snapshot() -> dict:
    modules = {
        name: (sys.modules[name], dict(sys.modules[name].__dict__)) for name in WATCHED_MODULES if name in sys.modules
    }
    functions, classes = _functions_and_classes(value for _, items in modules.values() for value in items.values())
    watched = tuple(function for function, *_ in functions)
    return {
        "modules": modules,
        "functions": functions,
        # Every watched function, and everything they refer to (their code and defaults among it), in one list.
        "function_parts": (watched, _get_referents(*watched)),
        "classes": classes,
        "sys": {name: sys.__dict__[name] for name in WATCHED_SYS},
        "settings": _settings(),
    }


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


def _functions_unchanged(before: dict) -> bool:
    """Whether no watched function's code or defaults can have changed, told from one list of what they all refer
    to. Reading a function's __code__, __defaults__ or __kwdefaults__ raises an audit event, which calls the audit
    hook above, Python code, once a read: the 1,254 reads of a check took 3-4 ms in Pyodide, most of a case's cost.
    One gc.get_referents call raises one event. A part that changed shows as another object at its place in the
    list, or as another length; then `changes` reads the parts one by one to say which function changed."""
    watched, parts = before["function_parts"]
    now = _get_referents(*watched)
    return now.__len__() == parts.__len__() and not _any(_map(_is_not, now, parts))


def changes(before: dict) -> list[str]:
    """What learner code changed of what the grader relies on, in its terms (empty when nothing).

    Calls no builtin function: they are among what may have been replaced."""
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
    for function, code, defaults, kwdefaults in () if _functions_unchanged(before) else before["functions"]:
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
    now = _settings()
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
        if signal.getsignal(signum) is not handler and handler is not None:
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


def cut_javascript_handles() -> None:
    """In Pyodide, drop the JavaScript objects Python still holds once Pyodide has started: the `js` and
    `pyodide_js` entries unregisterJsModule leaves in sys.modules, what loaded modules keep in their globals,
    and every other reference to those objects the garbage collector knows of (the import system's loaders
    of `js` and `pyodide_js` keep one each). From any of them learner code could climb to the JavaScript
    global scope (the worker, or Node.js and its file system). tests/test_pyodide_runner.py and
    tests/hostile/js_found_through_gc.py walk everything gc reaches to prove none is left."""
    try:
        from pyodide.ffi import JsProxy
    except ImportError:  # plain CPython: there is no JavaScript to reach
        return
    # isinstance against JsProxy goes through a metaclass written in Python: slow enough, over every global of
    # every module, to delay Python's start-up by a tenth of a second. Its answer depends only on the type.
    is_handle: dict[type, bool] = {}

    def handle(value) -> bool:
        kind = type(value)
        if kind not in is_handle:
            is_handle[kind] = isinstance(value, JsProxy)
        return is_handle[kind]

    cut = []
    for name, module in list(sys.modules.items()):
        if handle(module):
            cut.append(sys.modules.pop(name))
            continue
        namespace = getattr(module, "__dict__", None)
        if isinstance(namespace, dict):
            for key, value in list(namespace.items()):
                if handle(value):
                    cut.append(namespace.pop(key))
    gc.collect()
    for holder in gc.get_referrers(*cut):
        if holder is cut:
            continue
        if type(holder) is list:
            holder[:] = [item for item in holder if not handle(item)]
            continue
        namespace = holder if type(holder) is dict else getattr(holder, "__dict__", None)
        if isinstance(namespace, dict):
            for key in [key for key, value in namespace.items() if handle(value)]:
                del namespace[key]
