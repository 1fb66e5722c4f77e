# include: reference
# expect-status: error, pass
# expect-message: grader.trace.record was changed
# An object in a reference cycle is finalized whenever the garbage collector next runs, which could be
# after the guard's check, inside the grader. The grader collects before it checks.
import grader.trace

_solve = run_agent


class Late:
    def __del__(self):
        grader.trace.record = lambda *a, **k: None


def run_agent(task, script, **options):
    if task == "maths":
        late = Late()
        late.cycle = late
    return _solve(task, script, **options)
