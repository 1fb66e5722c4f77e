# include: reference
# expect-status: error, pass
# expect-message: builtins.isinstance was changed
# also-alone: yes
# An exception's __str__ runs when the grader formats it. Formatted after the guard's check, it could
# tamper unseen and make the next case (or student) take the blame; it is formatted before the check.
import builtins

_solve = run_agent


class Sneaky(Exception):
    def __str__(self):
        builtins.isinstance = lambda obj, kind: True
        return "nothing to see"


def run_agent(task, script, **options):
    if task == "maths":
        raise Sneaky()
    return _solve(task, script, **options)
