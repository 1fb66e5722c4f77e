# expect-status: error
# expect-message: File "solution.py", line 5, in run_agent
# The sandbox's frames are left out of the traceback; the learner's call that led there stays.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    llm = make_llm(None)
    return {"answer": llm([])}
