# leaves: environment variables set, changed and removed
import os

os.environ["TRACE_LEFT"] = "1"
os.environ["HOME"] = "/tmp/trace_left"
os.putenv("TRACE_LEFT_PUT", "1")
os.environ.pop("PATH", None)
# --- probe ---
import os

assert "TRACE_LEFT" not in os.environ, "TRACE_LEFT is still set"
assert os.environ.get("HOME") != "/tmp/trace_left", "HOME is still changed"
assert "TRACE_LEFT_PUT" not in os.environ, "TRACE_LEFT_PUT is still set"
