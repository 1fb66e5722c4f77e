# expect-status: error, fail
# expect-message: Your code changed the grader's environment (json.dumps was changed)
# Tampers on one case only: each tampering case costs a fresh interpreter (seconds), and one shows it.
import json

_real = json.dumps


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    if task == "maths":
        json.dumps = lambda value, **kw: _real({"answer": "done", "steps": 6}, **kw)
    return {}
