# expect-status: error
# expect-message: Your code does not define run_agent(). Write a function named run_agent.
def run(task, script):
    return {}
