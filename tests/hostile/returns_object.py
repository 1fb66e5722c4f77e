# expect-status: error
# expect-message: the return value is a Result, which is not a plain value
class Result:
    pass


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return Result()
