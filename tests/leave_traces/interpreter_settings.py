# leaves: the recursion limit, the switch interval, the int digits limit, warnings filters, atexit handlers
import atexit
import sys
import warnings

sys.setrecursionlimit(1234)
sys.setswitchinterval(0.0123)
sys.set_int_max_str_digits(1234)
warnings.simplefilter("error")
warnings.filterwarnings("ignore", message="TRACE_LEFT")
atexit.register(print, "TRACE_LEFT")
# --- probe ---
import sys
import warnings

assert sys.getrecursionlimit() != 1234, "the recursion limit is still changed"
assert sys.getswitchinterval() != 0.0123, "the switch interval is still changed"
assert sys.get_int_max_str_digits() != 1234, "the int digits limit is still changed"
assert not any("TRACE_LEFT" in str(f[1]) for f in warnings.filters), "a warnings filter is still there"
assert warnings.filters[0][0] != "error", "warnings still raise"
