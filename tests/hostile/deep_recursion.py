# expect-status: error
# expect-message: RecursionError
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return run_agent(task, script, max_steps, max_consecutive_errors)
