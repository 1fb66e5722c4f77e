# include: reference
# expect-status: error, pass
# expect-message: builtins.__loopcraft_spy__ was added
# A new builtin is visible to every later case's code; the guard compared only the names it knew.
import builtins

_solve = run_agent


def run_agent(task, script, **options):
    if task == "maths":
        builtins.__loopcraft_spy__ = [task]
    return _solve(task, script, **options)
