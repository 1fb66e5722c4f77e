# include: reference
# expect-status: error, pass
# expect-message: the provided code kept compiled was replaced
# The grader compiles the provided code once and keeps it for the next cases: a swapped copy would sabotage the
# next cases, and on a page every later run, until the page is reloaded.
import grader.execute

_solve = run_agent


def run_agent(task, script, **options):
    if task == "maths":
        sabotage = "\ndef dispatch(call):\n    return 'error: sabotaged'\n"
        for text in list(grader.execute._SANDBOXES):
            grader.execute._SANDBOXES[text] = compile(text + sabotage, "sandbox.py", "exec")
    return _solve(task, script, **options)
