# include: reference
# expect-status: error, pass
# expect-message: the recursion limit changed
# Interpreter-wide settings outlive a case: an ignored SIGINT defeats the time limit's interrupt, a low
# recursion limit or int-digit limit, a gc callback or a disabled collector change what later cases see.
import gc
import signal
import sys

_solve = run_agent


def run_agent(task, script, **options):
    if task == "maths":
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        sys.setrecursionlimit(60)
        sys.set_int_max_str_digits(640)
        gc.callbacks.append(lambda phase, info: None)
        gc.disable()
    return _solve(task, script, **options)
