# expect-status: error
# expect-message: an int of more than 1,000 digits
# A 5,000-digit int crashed the host's json.loads (past Python's 4,300-digit limit); it is refused in Pyodide.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {"answer": 7 ** 5917}
