# expect-status: error
# expect-message: BaseException: out of here
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    raise BaseException("out of here")
