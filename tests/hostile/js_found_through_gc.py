# include: reference
# expect-status: pass
# also-alone: yes
# Proxies of JavaScript objects that Pyodide made at start-up could be found through the garbage collector
# even once no module names them, and so could the functions that make them. Walks everything gc can reach from
# here, once (in the "maths" case). tests/pyodide/test_pyodide_runner.py and
# tests/browser/test_no_javascript_from_python.py call the walk directly.
import gc
import sys

_solve = run_agent


# Modules that are ways to JavaScript: Pyodide's JavaScript modules, the one whose functions make JavaScript
# objects, and ctypes (its foreign calls reach emscripten_run_script, i.e. eval).
WAYS = ("js", "pyodide_js", "_pyodide_core", "_ctypes", "ctypes")


def _kind(kind) -> str | None:
    """What to look at in objects of this type: "proxy" (a JavaScript object), "module", "builtin" (a builtin
    function), "type", or None (nothing)."""
    if "JsProxy" in [k.__name__ for k in kind.__mro__]:
        return "proxy"
    if kind is type(sys):
        return "module"
    if kind is type(len):
        return "builtin"
    return "type" if issubclass(kind, type) else None


def _is_way(obj, kind: str) -> bool:
    """A JavaScript object, or a live way to make one or to call JavaScript."""
    if kind == "module":
        # A module emptied of its functions (one CPython still keeps a slot for) leads nowhere.
        return obj.__name__ in WAYS and any(not key.startswith("__") for key in vars(obj))
    if kind == "builtin":  # one of those modules' functions
        return getattr(obj.__self__, "__name__", None) in WAYS
    if kind == "type":
        # JsException's own constructor makes a new JavaScript Error; the grader's replacement is Python's.
        return obj.__name__ == "JsException" and type(vars(obj).get("__new__")) is type(len)
    return kind == "proxy"


def walk_for_javascript():
    """{"walked": how many objects were seen, "javascript": the JavaScript objects and the ways to JavaScript
    among them}."""
    leaves = {str, int, float, bool, bytes, type(None)}  # nothing to find in them, and most of what there is
    seen, found, kinds = set(), [], {}
    frontier = [sys.modules, globals(), *gc.get_objects()]
    while frontier:
        inner = []
        for obj in frontier:
            kind = type(obj)
            if kind in leaves or id(obj) in seen:
                continue
            seen.add(id(obj))
            if kind not in kinds:
                kinds[kind] = _kind(kind)
            if kinds[kind] and _is_way(obj, kinds[kind]):
                found.append(f"{kind.__name__}: {obj!r:.60}")
            else:
                inner.append(obj)
        frontier = gc.get_referents(*inner)
    return {"walked": len(seen), "javascript": found}


def run_agent(task, script, **options):
    if task == "maths":
        found = walk_for_javascript()["javascript"]
        assert not found, f"reached JavaScript objects: {found[:5]}"
    return _solve(task, script, **options)
