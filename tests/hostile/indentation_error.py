# expect-status: error
# expect-message: IndentationError
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    llm = make_llm(script)
      return llm([])
