# include: reference
# expect-status: error, pass
# expect-message: grader.execute.run_case was changed in place
# Changing a grader function's defaults (here: the output limit of every later case) keeps the function object and its
# code, so neither identities nor the code tell it; CPython audits the assignment, and the guard notes it.
import grader.execute

_solve = run_agent


def run_agent(task, script, **options):
    if task == "maths":
        grader.execute.run_case.__defaults__ = (10**9,)
    return _solve(task, script, **options)
