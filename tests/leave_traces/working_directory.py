# leaves: the working directory changed, to a folder of its own
import os

os.makedirs("/tmp/trace_left_cwd", exist_ok=True)
os.chdir("/tmp/trace_left_cwd")
# --- probe ---
import os

assert "trace_left" not in os.getcwd(), f"the working directory is still {os.getcwd()}"
