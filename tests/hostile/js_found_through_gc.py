# include: reference
# expect-status: pass
# also-alone: yes
# Proxies of JavaScript objects that Pyodide made at start-up could be found through the garbage collector
# even once no module names them. Walks everything gc can reach from here, once (in the "maths" case).
# tests/test_pyodide_runner.py and tests/browser/test_no_javascript_from_python.py call the walk directly.
import gc
import sys

_solve = run_agent


def walk_for_javascript():
    """{"walked": how many objects were seen, "javascript": the JavaScript objects among them}."""
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
                kinds[kind] = "JsProxy" in [k.__name__ for k in kind.__mro__]
            if kinds[kind] or (kind is type(sys) and obj.__name__ in ("js", "pyodide_js")):
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
