# expect-status: error
# expect-message: KeyboardInterrupt
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    raise KeyboardInterrupt
