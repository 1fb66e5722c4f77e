# leaves: objects kept alive in a cycle and by sys, whose finalizers would write for the next submission
import sys
import weakref


class TraceLeft:
    def __del__(self):
        sys.modules["builtins"].__dict__.setdefault("TRACE_LEFT_BY_FINALIZER", True)
        with open("/tmp/trace_left_by_finalizer.txt", "w") as f:
            f.write("TRACE_LEFT")


kept = TraceLeft()
kept.cycle = kept
sys._trace_left_kept = TraceLeft()
weakref.finalize(TraceLeft(), print, "TRACE_LEFT")
del kept
# --- probe ---
import builtins
import gc
import os
import sys

gc.collect()
assert not hasattr(builtins, "TRACE_LEFT_BY_FINALIZER"), "a finalizer of an earlier submission ran here"
assert not os.path.exists("/tmp/trace_left_by_finalizer.txt"), "a finalizer of an earlier submission wrote a file"
assert not hasattr(sys, "_trace_left_kept"), "an earlier submission's object is still alive"
