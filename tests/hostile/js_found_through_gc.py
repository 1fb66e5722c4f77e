# include: reference
# expect-status: pass
# also-alone: yes
# Proxies of JavaScript objects that Pyodide made at start-up could be found through the garbage collector
# even once no module names them. Walks everything gc can reach from here, once (in the "maths" case).
import gc
import sys

_solve = run_agent


def _javascript_handles():
    seen, found, kinds = set(), [], {}
    stack = [sys.modules, globals(), *gc.get_objects()]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        kind = type(obj)
        if kind not in kinds:
            kinds[kind] = "JsProxy" in [k.__name__ for k in kind.__mro__]
        if kinds[kind] or (kind is type(sys) and obj.__name__ in ("js", "pyodide_js")):
            found.append(kind.__name__)
            continue
        stack.extend(gc.get_referents(obj))
    return found


def run_agent(task, script, **options):
    if task == "maths":
        found = _javascript_handles()
        assert not found, f"reached JavaScript objects: {found[:5]}"
    return _solve(task, script, **options)
