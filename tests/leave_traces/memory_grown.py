# leaves: memory grown far past what Python started with, and kept from the collector
import sys

if not hasattr(sys, "_trace_left_big"):  # once a submission: its cases share the interpreter
    sys._trace_left_big = bytearray(96 * 1024 * 1024)
    sys._trace_left_big[-1] = 1
# --- probe ---
import sys

assert not hasattr(sys, "_trace_left_big"), "the earlier submission's memory is still alive"
