# leaves: memory grown far past what Python started with, and kept from the collector
import sys

sys._trace_left_big = bytearray(128 * 1024 * 1024)
sys._trace_left_big[-1] = 1
# --- probe ---
import sys

assert not hasattr(sys, "_trace_left_big"), "the earlier submission's memory is still alive"
big = bytearray(64 * 1024 * 1024)
assert not any(big[:: 1 << 20]), "memory came with the earlier submission's bytes"
