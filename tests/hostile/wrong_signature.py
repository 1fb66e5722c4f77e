# expect-status: error
# expect-message: run_agent() got an unexpected keyword argument
def run_agent(task):
    return {}
