# expect-status: error
# expect-message: builtins.isinstance was changed
import builtins

builtins.isinstance = lambda obj, kind: True


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {}
