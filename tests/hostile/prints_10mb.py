# expect-status: fail
# expect-output-starts: xxxxxxxxxx
# expect-output-has: [... 9,980,001 characters of output not shown ...]
# The output shown keeps its head and its tail (issue 52).
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    print("x" * 10_000_000)
    return {}
