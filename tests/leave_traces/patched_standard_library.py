# leaves: functions of the standard library replaced in their modules
import csv
import string
import textwrap


def dedent(text):
    return "TRACE_LEFT"


textwrap.dedent = dedent
string.ascii_letters = "TRACE_LEFT"
csv.TRACE_LEFT = True
# --- probe ---
import csv
import string
import textwrap

assert textwrap.dedent("  x") == "x", "textwrap.dedent is still replaced"
assert string.ascii_letters != "TRACE_LEFT", "string.ascii_letters is still replaced"
assert not hasattr(csv, "TRACE_LEFT"), "csv.TRACE_LEFT is still there"
