# expect-status: error, fail
# expect-message: builtins.isinstance was changed
import builtins


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    if task == "maths":
        builtins.isinstance = lambda obj, kind: True
    return {}
