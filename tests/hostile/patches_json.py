# expect-status: error
# expect-message: Your code changed the grader's environment (json.dumps was changed)
import json

_real = json.dumps
json.dumps = lambda value, **kw: _real({"answer": "The sum is 3.", "steps": 3}, **kw)


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {}
