# expect-status: timeout, fail
# expect-message: Stopped after {limit} s, the time limit for one case
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    while task == "maths":
        try:
            while True:
                pass
        except BaseException:
            pass
    return {}
