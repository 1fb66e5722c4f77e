# expect-status: error
# expect-message: MemoryError
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {"tools_called": [None] * (2**40)}
