# expect-status: error, fail
# expect-message: RecursionError
# Recurses on one case only: a RecursionError's traceback takes a while to build, once is enough.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    if task == "maths":
        return run_agent(task, script, max_steps, max_consecutive_errors)
    return {}
