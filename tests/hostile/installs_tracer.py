# expect-status: error, fail
# expect-message: a trace or profile function was installed
import sys


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    if task == "maths":
        sys.settrace(lambda frame, event, arg: None)
    return {}
