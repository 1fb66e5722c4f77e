# leaves: the collector's thresholds changed, a callback, the collector switched off, objects in gc.garbage
import gc

gc.set_threshold(1, 2, 3)


def trace_left(phase, info):
    pass


gc.callbacks.append(trace_left)
gc.garbage.append("TRACE_LEFT")
gc.disable()
# --- probe ---
import gc

assert gc.get_threshold() != (1, 2, 3), "the collector's thresholds are still changed"
assert not any(getattr(cb, "__name__", "") == "trace_left" for cb in gc.callbacks), "a gc callback is still there"
assert "TRACE_LEFT" not in gc.garbage, "gc.garbage still holds what was left"
