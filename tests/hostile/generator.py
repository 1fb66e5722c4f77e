# expect-status: error
# expect-message: run_agent returned a generator
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    yield {"answer": None}
