# expect-status: error
# expect-message: MemoryError
# A 2 GB string: more than the WebAssembly heap can give, so Python raises MemoryError at once.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {"answer": "x" * (2**31 - 2)}
