# expect-status: timeout, fail
# expect-message: Stopped after {limit} s, the time limit for one case
# Loops on one case only, so the corpus stays quick; the other cases fail normally.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    while task == "maths":
        pass
    return {}
