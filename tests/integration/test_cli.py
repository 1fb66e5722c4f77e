"""`python -m grader`: the instructors' command line. What only a process shows (its exit status, what it prints to
a real stream) is checked on the real command; the rest runs its `main` in this process (tests.helpers.run_grader)."""

from __future__ import annotations

import json
import shutil

from tests.helpers import ROOT, cases_of, course_copy, grader_process, run_grader

EXERCISE = ROOT / "exercises" / "build-an-agent" / "consecutive-error-limit"


def test_a_correct_solution_exits_0_with_one_line_per_case():
    proc = grader_process("consecutive-error-limit", EXERCISE / "solution.py")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    total = len(cases_of("consecutive-error-limit", page=False))  # private ones included
    assert sum(line.strip().startswith("PASS") for line in lines) == total
    assert lines[-1].strip() == f"{total} of {total} cases passed: pass"


def test_json_output_follows_exercism_results_with_hidden_and_expected(runners):
    proc = run_grader(runners, "consecutive-error-limit", EXERCISE / "wrong" / "no_reset.py", "--json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["version"] == 3 and doc["status"] == "fail" and doc["message"] is None
    failed = [t for t in doc["tests"] if t["status"] != "pass" and not t["hidden"]]  # a private case fails too
    assert [t["name"] for t in failed] == ["A success resets the consecutive count"]
    assert failed[0]["expected"]["stop_reason"] == "final_answer"
    assert failed[0]["actual"]["stop_reason"] == "too_many_errors"
    for test in doc["tests"]:
        assert {"name", "status", "message", "output", "hidden"} <= set(test)
        assert ("expected" in test) == (not test["hidden"])


def test_a_folder_of_submissions_is_graded_file_by_file(tmp_path, runners):
    # Bob's loop runs to the limit: a copy of the challenge whose limit is 1 s, as the limit's value is not under test.
    challenge = (
        course_copy(tmp_path / "course", [EXERCISE.name], time_limit=1) / "exercises" / "build-an-agent" / EXERCISE.name
    )
    tmp_path = tmp_path / "submissions"
    tmp_path.mkdir()
    shutil.copy(EXERCISE / "solution.py", tmp_path / "alice.py")
    (tmp_path / "bob.py").write_text(
        "def run_agent(task, script, max_steps=5, max_consecutive_errors=3):\n"
        "    while max_consecutive_errors == 1:\n"
        "        pass\n"
        "    return {}\n"
    )
    (tmp_path / "carol.py").write_text("def run_agent(task, script:\n")
    proc = run_grader(runners, challenge, tmp_path, "--json")
    assert proc.returncode == 1
    docs = {d["file"].rsplit("/", 1)[-1]: d for d in json.loads(proc.stdout)["submissions"]}
    assert docs["alice.py"]["status"] == "pass"
    bob = {t["name"]: t["status"] for t in docs["bob.py"]["tests"]}
    assert bob["A limit of one stops at the first error"] == "timeout"  # the one case it loops in
    assert set(bob.values()) == {"timeout", "fail"}
    assert docs["carol.py"]["status"] == "error" and "SyntaxError" in docs["carol.py"]["message"]


def test_bad_input_exits_2_with_a_clear_message(tmp_path, runners):
    unknown = grader_process("no-such-challenge", EXERCISE / "solution.py")
    assert unknown.returncode == 2 and "unknown exercise 'no-such-challenge'" in unknown.stderr
    missing = run_grader(runners, "consecutive-error-limit", tmp_path / "missing.py")
    assert missing.returncode == 2 and "no such file" in missing.stderr
