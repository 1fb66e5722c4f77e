# leaves: attributes of sys and of __main__, and a global kept in the grader's module
import __main__
import sys

sys._trace_left = "from an earlier submission"
__main__.TRACE_LEFT = True
sys.modules["grader.execute"].__dict__.setdefault("TRACE_LEFT", True)
# --- probe ---
import __main__
import sys

assert not hasattr(sys, "_trace_left"), "sys._trace_left is still there"
assert not hasattr(__main__, "TRACE_LEFT"), "__main__.TRACE_LEFT is still there"
assert "TRACE_LEFT" not in sys.modules["grader.execute"].__dict__, "the grader's module kept a global"
