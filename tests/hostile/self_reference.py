# expect-status: error
# expect-message: contains itself (a circular reference)
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    result = {"answer": None}
    result["self"] = result
    return result
