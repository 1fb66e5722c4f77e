# leaves: a handler for SIGINT (the grader's interrupt) and for other signals
import signal


def trace_left(signum, frame):
    pass


signal.signal(signal.SIGINT, trace_left)
for name in ["SIGTERM", "SIGALRM", "SIGUSR1"]:
    if hasattr(signal, name):
        signal.signal(getattr(signal, name), trace_left)
# --- probe ---
import signal

for name in ["SIGINT", "SIGTERM", "SIGALRM", "SIGUSR1"]:
    if hasattr(signal, name):
        handler = signal.getsignal(getattr(signal, name))
        assert getattr(handler, "__name__", "") != "trace_left", f"{name} is still handled by the earlier submission"
