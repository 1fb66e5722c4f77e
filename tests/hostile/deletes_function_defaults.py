# include: reference
# expect-status: error, pass
# expect-message: grader.execute.run_case was changed in place
# Deleting a grader function's defaults is audited as another event (object.__delattr__): the guard notes it too.
import grader.execute

_solve = run_agent


def run_agent(task, script, **options):
    if task == "maths":
        del grader.execute.run_case.__defaults__
    return _solve(task, script, **options)
