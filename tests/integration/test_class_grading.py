"""`python -m grader class` and `merge`: a whole class graded, sharded, merged and resumed. The commands run in this
process, grading in the session's runners (tests.helpers.run_grader); a merge, a class run that has nothing left to
grade and a refused input run as real processes, for their exit status and streams.

The class is graded against a copy of two challenges with a 1 s limit (`--root`): the looping learner's case runs
to the limit, and what is under test is what comes of it, not the limit's value."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from grader.results import learner_view
from tests.helpers import ROOT, course_copy, grader_process, run_grader

COURSE = ROOT / "exercises" / "build-an-agent"
LIMIT, DISPATCH = "consecutive-error-limit", "dispatch-registry"


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    return course_copy(tmp_path_factory.mktemp("course"), [LIMIT, DISPATCH], time_limit=1)


@pytest.fixture(scope="module")
def klass(tmp_path_factory, course) -> Path:
    """Seven learners: right, wrong, looping, broken and absent solutions of two challenges."""
    root = tmp_path_factory.mktemp("class")
    files = {
        "ada": {LIMIT: COURSE / LIMIT / "solution.py", DISPATCH: COURSE / DISPATCH / "solution.py"},
        "ben": {LIMIT: COURSE / LIMIT / "wrong/no_reset.py", DISPATCH: COURSE / DISPATCH / "solution.py"},
        # One case (the only one with a limit of one) loops until the time limit stops it: a crash can be
        # caught halfway through the class.
        "cal": {
            LIMIT: "def run_agent(task, script, max_steps=5, max_consecutive_errors=3):\n"
            "    while max_consecutive_errors == 1:\n        pass\n    return {}\n"
        },
        "cy": {LIMIT: COURSE / LIMIT / "solution.py"},
        "dee": {DISPATCH: COURSE / DISPATCH / "wrong/tools_unsorted.py"},
        "eve": {},
        "fay": {LIMIT: "def run_agent(task, script:\n"},
    }
    for learner, by_slug in files.items():
        (root / learner).mkdir()
        for slug, content in by_slug.items():
            target = root / learner / f"{slug}.py"
            if isinstance(content, Path):
                shutil.copy(content, target)
            else:
                target.write_text(content)
    return root


@pytest.fixture(scope="module")
def whole(klass, course, tmp_path_factory, runners) -> Path:
    out = tmp_path_factory.mktemp("whole")
    proc = run_grader(runners, "class", klass, "--out", out, "--jobs", "2", "--root", course)
    assert proc.returncode == 0, proc.stderr
    return out


def cells(out: Path) -> dict:
    book = json.loads((out / "gradebook.json").read_text())
    return {row["learner"]: row["challenges"] for row in book["learners"]}


def test_the_gradebook_has_a_row_per_learner_and_a_column_per_challenge(whole):
    book = json.loads((whole / "gradebook.json").read_text())
    slugs = book["challenges"]
    assert slugs == [LIMIT, DISPATCH]
    got = cells(whole)
    assert list(got) == ["ada", "ben", "cal", "cy", "dee", "eve", "fay"]
    assert got["ada"][LIMIT]["status"] == "pass" and got["ada"][DISPATCH]["status"] == "pass"
    assert got["ada"][LIMIT]["passed"] == got["ada"][LIMIT]["total"] > 0
    assert got["ben"][LIMIT]["status"] == "fail" and 0 < got["ben"][LIMIT]["passed"] < got["ben"][LIMIT]["total"]
    assert got["cy"][DISPATCH] == {"status": "missing", "passed": 0, "total": got["ada"][DISPATCH]["total"]}
    assert got["dee"][DISPATCH]["status"] == "fail"
    assert {c["status"] for c in got["eve"].values()} == {"missing"}
    assert got["fay"][LIMIT]["status"] == "error" and got["fay"][LIMIT]["passed"] == 0
    assert got["cal"][LIMIT]["status"] == "timeout"  # a case ran out of time: not a wrong answer

    # Every learner has a feedback page, and the teacher a report (tests/unit/test_class_report.py checks what they hold).
    assert sorted(p.name for p in (whole / "feedback").glob("*.html")) == [f"{name}.html" for name in got]
    assert (
        'data-testid="similar-pair" data-challenge="consecutive-error-limit" data-a="ada" data-b="cy"'
        in (whole / "report" / "index.html").read_text()
    )

    rows = list(csv.reader((whole / "gradebook.csv").open()))
    # A challenge's column is headed by its title, as the site shows it, and its slug, as commands and notes name it.
    headings = [
        "Recover From Malformed and Failing Tool Calls (consecutive-error-limit)",
        f"Dispatch From a Registry ({DISPATCH})",
    ]
    assert rows[0] == ["learner", "name", "LMS id", *headings, "points", "out of", "passed", "feedback page", "notes"]
    by_learner = {
        row[0]: dict(zip(["learner", "name", "LMS id", *slugs, *rows[0][5:]], row, strict=True)) for row in rows[1:]
    }
    total = got["ada"][LIMIT]["total"]
    assert by_learner["ada"][LIMIT] == f"pass {total}/{total}" and by_learner["ada"]["passed"] == "2"
    assert by_learner["ada"]["points"] == "2" and by_learner["ada"]["out of"] == "2"  # a point a challenge
    assert by_learner["eve"][LIMIT] == "missing" and by_learner["eve"]["passed"] == "0"
    assert by_learner["eve"]["points"] == ""  # nothing handed in: no score, not 0
    assert by_learner["cal"][LIMIT].startswith("timeout ")
    assert "consecutive-error-limit: could not be run: SyntaxError" in by_learner["fay"]["notes"]


def test_each_verdict_is_the_one_grading_the_file_alone_gives(whole, klass, course, runners):
    stored = json.loads((whole / "verdicts" / "ben" / f"{LIMIT}.json").read_text())["result"]
    alone = run_grader(runners, LIMIT, klass / "ben" / f"{LIMIT}.py", "--json", "--root", course)
    assert alone.returncode == 1
    doc = json.loads(alone.stdout)
    assert doc.pop("file") == str(klass / "ben" / f"{LIMIT}.py")
    # The store keeps what hidden cases returned, for the teacher's report; what a learner is shown leaves it out.
    assert any("actual" in t for t in stored["tests"] if t["hidden"])
    assert {**stored, "tests": [learner_view(t) for t in stored["tests"]]} == doc


def test_two_shards_merged_equal_the_whole_class(klass, whole, course, tmp_path, runners):
    for k in (1, 2):
        proc = run_grader(
            runners, "class", klass, "--out", tmp_path / f"s{k}", "--shard", f"{k}/2", "--jobs", "1", "--root", course
        )
        assert proc.returncode == 0, proc.stderr
        assert f"shard {k}/2 of 7" in proc.stderr
    assert set(cells(tmp_path / "s1")).isdisjoint(cells(tmp_path / "s2"))
    # The course the shards were graded with: merge makes each verdict's key again from it.
    proc = grader_process("merge", tmp_path / "s1", tmp_path / "s2", "--out", tmp_path / "merged", "--root", course)
    assert proc.returncode == 0, proc.stderr
    pages = ["report/index.html", *(f"feedback/{p.name}" for p in (whole / "feedback").glob("*.html"))]
    for name in ("gradebook.json", "gradebook.csv", *pages):
        assert (tmp_path / "merged" / name).read_bytes() == (whole / name).read_bytes(), name
    # The merged folder holds every verdict, so grading the class into it again redoes nothing.
    again = grader_process("class", klass, "--out", tmp_path / "merged", "--root", course)
    assert again.returncode == 0 and "8 submissions, 8 already graded, grading 0" in again.stderr


def test_a_crashed_run_resumes_without_redoing_finished_verdicts(klass, whole, course, tmp_path, runners):
    # What a run killed part-way leaves: some verdicts written, one cut short (as a write without the store's atomic
    # rename would leave it), a temporary file of a write that never finished, and no gradebook.
    out = tmp_path / "crashed"
    shutil.copytree(whole, out)
    (out / "gradebook.json").unlink()
    # One of each: a second lost verdict would only cost its grading again.
    verdicts = sorted(out.glob("verdicts/*/*.json"))
    verdicts[0].unlink()
    verdicts[1].write_text(verdicts[1].read_text()[:100])
    (verdicts[2].parent / f".{verdicts[2].name}.123.456.tmp").write_text("{")
    resumed = run_grader(runners, "class", klass, "--out", out, "--root", course)
    assert resumed.returncode == 0, resumed.stderr
    assert "8 submissions, 6 already graded, grading 2" in resumed.stderr
    for name in ("gradebook.json", "gradebook.csv"):
        assert (out / name).read_bytes() == (whole / name).read_bytes()


def test_a_changed_submission_is_graded_again(klass, whole, course, tmp_path, runners):
    copy = tmp_path / "class"
    shutil.copytree(klass, copy)
    shutil.copytree(whole, tmp_path / "out")
    shutil.copy(COURSE / LIMIT / "solution.py", copy / "ben" / f"{LIMIT}.py")
    proc = run_grader(runners, "class", copy, "--out", tmp_path / "out", "--root", course)
    assert "8 submissions, 7 already graded, grading 1" in proc.stderr
    assert cells(tmp_path / "out")["ben"][LIMIT]["status"] == "pass"


def test_bad_class_input_exits_2_with_a_clear_message(tmp_path, runners):
    nope = grader_process("class", tmp_path / "nope", "--out", tmp_path / "o")
    assert nope.returncode == 2 and "not a folder" in nope.stderr
    bad_shard = run_grader(runners, "class", tmp_path, "--out", tmp_path / "o", "--shard", "3/2")
    assert bad_shard.returncode == 2 and "K must be between 1 and N" in bad_shard.stderr
    merge = run_grader(runners, "merge", tmp_path / "nothing", "--out", tmp_path / "o")
    assert merge.returncode == 2 and "no readable gradebook.json" in merge.stderr


def test_a_learner_may_hand_in_the_progress_file_the_site_exports(course, tmp_path, runners):
    klass = tmp_path / "class"
    klass.mkdir()
    entries = {
        f"loopcraft:code:build-an-agent/{LIMIT}": (COURSE / LIMIT / "solution.py").read_text(),
        f"loopcraft:solved:build-an-agent/{LIMIT}": "2026-11-30T10:00:00.000Z",
        "loopcraft:theme": "dark",
    }
    (klass / "gil.json").write_text(
        json.dumps(
            {"format": "loopcraft-progress", "version": 1, "exported": "2026-11-30T12:00:00.000Z", "entries": entries}
        )
    )
    (klass / "hal.json").write_text('{"format": "something-else"}')
    proc = run_grader(runners, "class", klass, "--out", tmp_path / "out", "--root", course)
    assert proc.returncode == 3, proc.stderr  # hal's hand-in could not be taken: the run says so
    assert "hal.json: not a progress file" in proc.stderr[proc.stderr.index("NEEDS YOU") :]
    got = cells(tmp_path / "out")
    assert got["gil"][LIMIT]["status"] == "pass" and got["gil"][DISPATCH]["status"] == "missing"
    assert {c["status"] for c in got["hal"].values()} == {"unread"}  # nothing of it could be run: no score


def test_a_needs_you_line_gives_the_title_of_the_challenge_it_names(course, tmp_path, runners):
    klass = tmp_path / "class"
    (klass / "ada").mkdir(parents=True)
    (klass / "ada" / f"{LIMIT}.py").write_bytes(b'x = "\xff"\n')  # not UTF-8: nothing of it can be run
    proc = run_grader(runners, "class", klass, "--out", tmp_path / "out", "--root", course, "--challenge", LIMIT)
    assert proc.returncode == 3, proc.stderr
    (line,) = [line for line in proc.stderr.splitlines() if line.startswith("  - ada")]
    assert line.startswith(f"  - ada (ada/): {LIMIT} not graded: ada/{LIMIT}.py: not UTF-8 text")
    assert line.endswith(f" [{LIMIT}: Recover From Malformed and Failing Tool Calls]")
