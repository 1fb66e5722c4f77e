# expect-status: fail
# A set is a value now (its value text is {"$set": [...]}), compared with the expected dict and failing.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {"tools_called": {"add"}}
