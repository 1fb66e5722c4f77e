# include: reference
# expect-status: pass
# also-alone: yes
# In a folder graded in one interpreter, a later submission could read an earlier one's source (a cache of
# compiled code kept it) or what an earlier one left behind in a module. Each submission starts fresh: there
# is nothing of anyone else's to find. Looks everywhere gc reaches for another solution's source, once.
import gc
import linecache
import sys

_solve = run_agent
_MINE = "".join(linecache.cache.get("solution.py", (0, 0, [], ""))[2])
_MARK = "def run_agent("


def _other_sources():
    seen, found = set(), []
    frontier = [sys.modules, *gc.get_objects()]
    while frontier:
        inner = []
        for obj in frontier:
            if type(obj) is str:
                if _MARK in obj and obj not in _MINE and _MINE not in obj:
                    found.append(obj[:60])
            elif id(obj) not in seen:
                seen.add(id(obj))
                inner.append(obj)
        frontier = gc.get_referents(*inner)
    return found


def run_agent(task, script, **options):
    if task == "maths":
        assert _MINE, "linecache does not hold this solution's own source"
        found = _other_sources()
        assert not found, f"found another submission's source: {found[:2]}"
        assert not hasattr(sys, "_loopcraft_replay"), "found return values recorded from an earlier submission"
    return _solve(task, script, **options)
