"""A submission that raises while it loads, in the private cases only (it counts the cases it has run in a file
of the interpreter's own), with the case's run spec, its arguments in it (found up the stack), in its message. A
run's message, the first load error's, is shown wherever the run is (a feedback page, --json, Gradescope's output):
it never comes from a private case. The cases before them pass; the private ones are errors, by name and status."""

from loopcraft.course.load import find_exercise

EXPECT = {"pia": {"status": "fail"}}

PRELUDE = """
import sys

try:
    with open("/tmp/cases-run") as _file:
        _run = int(_file.read())
except OSError:
    _run = 0
with open("/tmp/cases-run", "w") as _file:
    _file.write(str(_run + 1))
if _run >= {published}:
    _frame = sys._getframe()
    while _frame is not None and "run_json" not in _frame.f_locals:
        _frame = _frame.f_back
    raise RuntimeError("LEAK " + (_frame.f_locals["run_json"] if _frame else "?"))
"""


def build(folder, course, slug):
    ex = find_exercise(course, slug)
    published = sum(not c.private for c in ex.cases)
    (folder / "pia").mkdir()
    (folder / "pia" / f"{slug}.py").write_text(PRELUDE.format(published=published) + ex.solution_source)
