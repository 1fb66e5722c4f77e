# leaves: files open at descriptors the next submission could read or write
import os

fd = os.open("/tmp/trace_left_open.txt", os.O_CREAT | os.O_RDWR)
os.write(fd, b"TRACE_LEFT")
os.lseek(fd, 0, os.SEEK_SET)
kept = os.dup(fd)
read_end, write_end = os.pipe()
os.write(write_end, b"TRACE_LEFT")
# --- probe ---
import os

for fd in range(3, 64):
    try:
        os.fstat(fd)
    except OSError:
        continue
    raise AssertionError(f"descriptor {fd} is still open")
