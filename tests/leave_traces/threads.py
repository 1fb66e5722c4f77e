# leaves: threads, if it could start any (Pyodide has none: starting one fails)
import threading

try:
    threading.Thread(target=lambda: None, name="trace_left", daemon=True).start()
except RuntimeError:
    pass
# --- probe ---
import threading

assert not any(t.name == "trace_left" for t in threading.enumerate()), "a thread is still running"
assert threading.active_count() == 1, f"{threading.active_count()} threads"
