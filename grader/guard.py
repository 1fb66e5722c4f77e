"""Keep the grader's own machinery out of the learner code's reach, and notice when it is touched.

Learner code runs in the same interpreter as grader.execute. Verdicts are made elsewhere (the page,
the CLI's CPython), but the canonical JSON of a return value is made here, so a solution that
replaces json.dumps, a builtin or a grader function could forge it. After every case the grader
checks that what it relies on is unchanged; if not, the case is an error and the interpreter is
thrown away (see worker-core.js). docs/threat-model.md says what this does and does not promise.
"""
from __future__ import annotations

import sys

WATCHED_MODULES = (
    "builtins", "json", "json.decoder", "json.encoder", "json.scanner", "math", "inspect", "io",
    "linecache", "traceback", "functools", "grader", "grader.canonical", "grader.execute", "grader.guard",
    "grader.trace",
)
WATCHED_SYS = ("modules", "meta_path", "path_hooks", "stdout", "stderr", "stdin")
_MISSING = object()


def snapshot() -> dict:
    modules = {name: (sys.modules[name], dict(sys.modules[name].__dict__)) for name in WATCHED_MODULES if name in sys.modules}
    return {"modules": modules, "sys": {name: sys.__dict__[name] for name in WATCHED_SYS}}


def changes(before: dict) -> list[str]:
    """What learner code changed of what the grader relies on, in its terms (empty when nothing).

    Uses no builtin functions: they are among what may have been replaced."""
    found = []
    for name, (module, items) in before["modules"].items():
        if sys.modules.get(name) is not module:
            found.append(f"the module {name} was replaced")
            continue
        current = module.__dict__
        found.extend(f"{name}.{key} was changed" for key, value in items.items() if current.get(key, _MISSING) is not value)
    found.extend(f"sys.{name} was replaced" for name, value in before["sys"].items() if sys.__dict__.get(name) is not value)
    if sys.gettrace() is not None or sys.getprofile() is not None:
        found.append("a trace or profile function was installed")
    return found


def restore(before: dict) -> None:
    """Put back what `changes` found changed, so the grader can still write its verdict of the case (a
    replaced builtin breaks even json.dumps). The interpreter is still replaced afterwards: this cannot
    undo everything learner code may have done."""
    for name, (module, items) in before["modules"].items():
        sys.modules[name] = module
        module.__dict__.update(items)
    sys.__dict__.update(before["sys"])


def cut_javascript_handles() -> None:
    """In Pyodide, drop the JavaScript objects that loaded modules keep: from any of them, learner code
    could climb to the JavaScript global scope (the worker, or Node.js and its file system)."""
    try:
        from pyodide.ffi import JsProxy
    except ImportError:  # plain CPython: there is no JavaScript to reach
        return
    # isinstance against JsProxy goes through a metaclass written in Python: slow enough, over every global of
    # every module, to delay Python's start-up by a tenth of a second. Its answer depends only on the type.
    is_handle: dict[type, bool] = {}
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if isinstance(namespace, dict):
            for key, value in list(namespace.items()):
                kind = type(value)
                if kind not in is_handle:
                    is_handle[kind] = isinstance(value, JsProxy)
                if is_handle[kind]:
                    del namespace[key]
