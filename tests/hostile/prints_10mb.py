# expect-status: fail
# expect-output-ends: more characters not shown]
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    print("x" * 10_000_000)
    return {}
