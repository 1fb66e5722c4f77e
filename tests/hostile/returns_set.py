# expect-status: error
# expect-message: the return value['tools_called'] is a set, which is not JSON
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {"tools_called": {"add"}}
