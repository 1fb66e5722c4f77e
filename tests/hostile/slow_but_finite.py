# expect-status: timeout, fail
# expect-message: Stopped after {limit} s, the time limit for one case
import time


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    if task == "maths":
        end = time.monotonic() + 8
        while time.monotonic() < end:
            pass
    return {}
