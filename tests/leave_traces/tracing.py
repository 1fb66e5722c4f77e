# leaves: a trace function, a profile function and a sys.monitoring tool with callbacks
import sys


def trace_left(*args):
    return None


sys.settrace(trace_left)
sys.setprofile(trace_left)
sys.monitoring.use_tool_id(3, "trace_left")
sys.monitoring.register_callback(3, sys.monitoring.events.PY_RETURN, trace_left)
sys.monitoring.set_events(3, sys.monitoring.events.PY_RETURN)
# --- probe ---
import sys

assert sys.gettrace() is None, "a trace function is still set"
assert sys.getprofile() is None, "a profile function is still set"
assert sys.monitoring.get_tool(3) is None, "sys.monitoring tool 3 is still in use"
