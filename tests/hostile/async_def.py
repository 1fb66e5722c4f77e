# expect-status: error
# expect-message: run_agent returned a coroutine: define it with def, not async def
async def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {}
