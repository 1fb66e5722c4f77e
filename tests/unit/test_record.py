"""What `build.py record` writes of a case, from the one judge's verdict of the reference solution's probe
(loopcraft/authoring/record.py): what it raised, printed or returned. The probe itself runs in Pyodide in
tests/integration/test_authoring.py; here, the verdicts it reads."""

from __future__ import annotations

from grader.results import CaseResult, Status
from loopcraft.authoring.record import _recorded
from loopcraft.course.course import MISSING, Case

SOLUTION = "class Off(ValueError):\n    pass\n\nclass WayOff(Off):\n    pass\n\ndef f(x):\n    raise WayOff(x)\n"


def probe(status: Status, *, actual=None, actual_shown=None, stdout="") -> CaseResult:
    return CaseResult("c", status, actual=actual, actual_shown=actual_shown, stdout=stdout)


def test_a_raise_of_the_references_own_class_is_recorded_as_the_built_in_it_derives_from():
    case = Case("c", [1], MISSING, hidden=False, line=1)
    raised = probe(Status.PASS, actual_shown="WayOff: too far")
    assert _recorded(case, raised, SOLUTION) == {"raises": {"type": "ValueError", "message": "too far"}}
    assert _recorded(case, probe(Status.PASS, actual_shown="KeyError"), SOLUTION) == {"raises": {"type": "KeyError"}}


def test_printed_text_is_recorded_for_a_case_with_stdin_or_a_reference_that_prints_and_returns_none():
    fed = Case("c", None, MISSING, hidden=False, line=1, call="main()", stdin="3\n")
    returned = probe(Status.FAIL, actual=[1, {"$set": [2]}], actual_shown="(1, {2})", stdout="working\n")
    assert _recorded(fed, returned, SOLUTION) == {"stdout": "working\n"}
    plain = Case("c", [], MISSING, hidden=False, line=1)
    assert _recorded(plain, probe(Status.FAIL, actual_shown="None", stdout="7\n"), SOLUTION) == {"stdout": "7\n"}
    # A value is recorded as its Python value, the value text's tags read back; printing besides does not matter.
    assert _recorded(plain, returned, SOLUTION) == {"expected": [1, {2}]}
    assert _recorded(plain, probe(Status.FAIL, actual_shown="None"), SOLUTION) == {"expected": None}
