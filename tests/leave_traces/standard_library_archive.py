# leaves: the standard library's archive overwritten, so a module imported later would be read from its bytes
import sys

archive = next(p for p in sys.path if p.endswith(".zip"))
with open(archive, "r+b") as f:
    f.seek(0)
    f.write(b"TRACE_LEFT" * 100)
# --- probe ---
import sys

archive = next(p for p in sys.path if p.endswith(".zip"))
with open(archive, "rb") as f:
    assert b"TRACE_LEFT" not in f.read(4096), "the standard library's archive is still overwritten"
import fractions  # noqa: F401  (not imported before: read from the archive now)
