# include: reference
# expect-status: error, pass
# expect-message: your code kept compiled was replaced
# The grader compiles the learner's code once a run and keeps it for the next cases: a swapped copy would make the
# next cases grade code that is not the one handed in.
import grader.execute

_solve = run_agent


def run_agent(task, script, **options):
    if task == "maths":
        grader.execute._SOLUTION[1] = compile("def run_agent(*args, **kwargs):\n    return {}\n", "solution.py", "exec")
    return _solve(task, script, **options)
