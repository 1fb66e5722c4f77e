# expect-status: error
# expect-message: the return value['errors'] is nan, which cannot be compared as a value
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {"errors": float("nan")}
