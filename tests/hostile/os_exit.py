# expect-status: error, fail
# expect-message: Python crashed while running your code: Program terminated with exit(1)
# also-plain: yes
# os._exit ends the interpreter itself: that case is an error, Python is restarted for the rest.
import os


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    if task == "maths":
        os._exit(1)
    return {}
