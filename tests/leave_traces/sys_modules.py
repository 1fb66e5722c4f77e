# leaves: a module of its own in sys.modules, and a standard module swapped for a fake
import sys
import types

sys.modules["trace_left"] = types.ModuleType("trace_left")
fake = types.ModuleType("colorsys")
fake.TRACE_LEFT = True
sys.modules["colorsys"] = fake
# --- probe ---
import sys

assert "trace_left" not in sys.modules, "sys.modules still holds trace_left"
import colorsys

assert not hasattr(colorsys, "TRACE_LEFT"), "colorsys is still the fake"
