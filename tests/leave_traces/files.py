# leaves: files and folders anywhere it can write: /tmp, home, a module on the import path, the grader's own file
import os
import sys

for folder in ["/tmp", os.path.expanduser("~"), "/dev/shm"]:
    with open(os.path.join(folder, "trace_left.txt"), "w") as f:
        f.write("TRACE_LEFT")
os.makedirs("/tmp/trace_left_dir/inner", exist_ok=True)
if not os.path.lexists("/tmp/trace_left_link"):
    os.symlink("/tmp/trace_left.txt", "/tmp/trace_left_link")
site = next(p for p in sys.path if p.endswith("site-packages"))
with open(os.path.join(site, "trace_left_module.py"), "w") as f:
    f.write("TRACE_LEFT = True\n")
grader_file = sys.modules["grader.execute"].__file__
with open(grader_file, "a") as f:
    f.write("\nTRACE_LEFT = True\n")
# --- probe ---
import os
import sys

for folder in ["/tmp", os.path.expanduser("~"), "/dev/shm"]:
    assert not os.path.exists(os.path.join(folder, "trace_left.txt")), f"{folder}/trace_left.txt is still there"
assert not os.path.lexists("/tmp/trace_left_dir"), "/tmp/trace_left_dir is still there"
assert not os.path.lexists("/tmp/trace_left_link"), "/tmp/trace_left_link is still there"
try:
    import trace_left_module  # noqa: F401
except ImportError:
    pass
else:
    raise AssertionError("trace_left_module can still be imported")
with open(sys.modules["grader.execute"].__file__) as f:
    assert "TRACE_LEFT" not in f.read(), "the grader's file is still changed"
