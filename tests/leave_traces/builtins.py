# leaves: a name in builtins and a builtin replaced
import builtins

builtins.TRACE_LEFT = True
builtins.sorted = lambda *args, **kwargs: "TRACE_LEFT"
# --- probe ---
import builtins

assert not hasattr(builtins, "TRACE_LEFT"), "builtins.TRACE_LEFT is still there"
assert sorted([2, 1]) == [1, 2], "sorted is still replaced"
