# expect-status: error
# expect-message: File "solution.py", line 6
# A missing closing bracket: the message points at the learner's own line.

def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {"answer": (None}
