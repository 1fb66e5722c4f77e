"""The LMS round trip: a Canvas and a Moodle download (hostile entries among them) graded by `python -m grader class`,
the gradebook checked, and the scores written back in each LMS's import layout, learners matched by the LMS's ids
with the LMS's own export. The commands run in this process, grading in the session's in-process runners (the code
graded is the course's own: tests/zips.py), tests.helpers.run_grader; tests/integration/test_class_grading.py checks what only the
real process shows."""

from __future__ import annotations

import csv
import json
import os
import shutil
import stat
import unicodedata
from pathlib import Path

import pytest

from loopcraft import classroom
from loopcraft.classroom import lms, lmsfiles
from loopcraft.classroom.printable import file_name
from loopcraft.course.errors import ExerciseError
from loopcraft.course.load import load_course
from loopcraft.course.project import Project
from tests.helpers import course_copy, feedback_page, inert_problems, run_grader
from tests.lms_rules import (
    WORKSHEET_HEADER,
    canvas_entry,
    canvas_export,
    canvas_import_reads,
    canvas_reupload_owner,
    moodle_entry,
    moodle_import_owner,
    moodle_worksheet,
    moodle_worksheet_reads,
)
from tests.zips import LIMIT, RIGHT, WRONG, Member, build, canvas_name, csv_text, deflated

TRACK = classroom.course(Project())[0]  # through the build cache, as the class command loads it
EXERCISES = classroom.course_exercises(Project())  # every track's: a class without --challenge grades them all
TITLES = {ex.slug: ex.title for ex in TRACK.exercises}


def table(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def learners(out: Path) -> dict[str, dict]:
    return {r["learner"]: r for r in json.loads((out / "gradebook.json").read_text())["learners"]}


def score(cell: dict, points: float = 1.0) -> str:
    """What an import holds for a gradebook cell: the points times the share of cases passed, blank if missing."""
    if cell["status"] == "missing":
        return ""
    return f"{points * cell['passed'] / cell['total']:.2f}".rstrip("0").rstrip(".")


def progress_file(code: str) -> str:
    entries = {f"loopcraft:code:build-an-agent/{LIMIT}": code}
    doc = {"format": "loopcraft-progress", "version": 1, "exported": "2026-11-30T12:00:00.000Z", "entries": entries}
    return json.dumps(doc)


# A Canvas assignment of one challenge, files named by Canvas's rules (tests/lms_rules.py) as the learners named them
# (so `--challenge`), hostile ones among them: each must be its own learner's error.
PEOPLE = {11: "Doe, John", 12: "Roe, Ann", 13: "Lee, Kim", 14: '=HYPERLINK("http://x")', 15: "Bomb, Bo"}
PEOPLE |= {16: "Climber, C", 17: "Nonutf, N", 18: "Twice, T", 99: "Absent, Al"}


def entry(user: int, attachment: int, file: str, **rules) -> str:
    return canvas_entry(PEOPLE[user], user, file, attachment=attachment, **rules)


CANVAS = [
    Member(entry(11, 100, "limit.py"), WRONG),
    Member(entry(11, 101, "limit-1.py"), RIGHT),  # handed in again: Canvas renames it -1
    Member(entry(12, 102, "solution.py", late=True), WRONG),  # "_LATE_", in capitals
    Member(entry(13, 103, "loopcraft-progress.json"), progress_file(RIGHT)),  # the site's export
    Member(entry(14, 104, "x.py"), "/etc/passwd", mode=stat.S_IFLNK | 0o777),
    # 50 MB of zeros under a record that claims 100 bytes of them.
    Member(entry(15, 105, "b.py"), b"\0" * 100, compressed=deflated(b"\0" * 50_000_000)),
    # Crafted: Canvas never writes a "/" in a name, nor a name that is not UTF-8, nor one name twice.
    Member(entry(16, 106, "x.py").replace("x.py", "../../../home/x.py"), RIGHT),
    Member(entry(17, 107, "").encode() + b"\xff\xfe.py", RIGHT, utf8_flag=True),
    Member(entry(18, 108, "limit.py"), RIGHT),
    Member(entry(18, 108, "limit.py"), WRONG),
    Member("readme.txt", "not a learner's"),
]
ROSTER = [{"name": PEOPLE[user], "id": user, "sis": f"s{user}", "login": f"l{user}", "section": "A"} for user in PEOPLE]
ROSTER = [r for r in ROSTER if r["id"] not in (17, 18)]  # two who left the course since


@pytest.fixture(scope="module")
def canvas(tmp_path_factory, in_process_runners) -> Path:
    root = tmp_path_factory.mktemp("canvas")
    (root / "submissions.zip").write_bytes(build(CANVAS))
    (root / "roster.csv").write_bytes(canvas_export(ROSTER, [(TITLES[LIMIT], 901, 10)], bom=True))
    proc = run_grader(
        in_process_runners, "class", root / "submissions.zip", "--out", root / "out", "--challenge", LIMIT,
        "--lms", "canvas", "--roster", root / "roster.csv",
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr  # written, but a stray file and two learners need the teacher
    (root / "stderr.txt").write_text(proc.stderr)
    return root


def test_a_canvas_download_is_a_learner_per_canvas_user_each_hazard_its_own_learners_error(canvas):
    stderr = (canvas / "stderr.txt").read_text()
    assert "Traceback" not in stderr
    assert "grading 3 with" in stderr  # doejohn's latest, roeann's and leekim's progress file: nothing hostile ran
    got = learners(canvas / "out")
    keys = {user: f"{canvas_entry(PEOPLE[user], user, 'x', attachment=1).split('_')[0]}_{user}" for user in PEOPLE}
    assert set(got) == {keys[user] for user in range(11, 19)} | {"readme.txt"}
    assert all(r["lms"]["canvas"] == r["learner"].rsplit("_", 1)[1] for i, r in got.items() if i != "readme.txt")
    cell = {learner: r["challenges"][LIMIT] for learner, r in got.items()}
    assert cell[keys[11]]["status"] == "pass"  # limit-1.py, the later one, is the one graded
    assert any("kept limit-1.py, the latest of 2" in note for note in got[keys[11]]["notes"])
    assert cell[keys[12]]["status"] == "fail" and 0 < cell[keys[12]]["passed"] < cell[keys[12]]["total"]
    assert "handed in late (Canvas)" in got[keys[12]]["notes"]
    assert cell[keys[13]]["status"] == "pass"
    for user, why in [
        (14, "a link; only regular files are read"),
        (15, "over the 262,144 bytes a submission may have"),
        (16, "climbs out of the zip's folder"),
        (17, "its name is marked as UTF-8 and is not"),
        (18, "the zip holds 2 entries of this name"),
    ]:
        # Nothing of it ran: not a 0 but "unread", named to the teacher with why, and scored for no one.
        assert cell[keys[user]] == {"status": "unread", "passed": 0, "total": cell[keys[11]]["total"]}, user
        verdict = json.loads((canvas / "out" / "verdicts" / file_name(keys[user]) / f"{LIMIT}.json").read_text())
        assert why in verdict["result"]["message"], (user, verdict["result"]["message"])
        assert f"error: {keys[user]}: {LIMIT}: " in stderr and why in stderr
    assert "not named as Canvas names a learner's file" in got["readme.txt"]["error"]
    needs = stderr[stderr.index("NEEDS YOU: 9 ") :]
    assert "readme.txt: submissions.zip: readme.txt: not named as Canvas names" in needs
    assert (
        f"{keys[17]} (submissions.zip: {keys[17]}_*): not in canvas's files: Canvas user 17 is not in the roster"
        in needs
    )
    for user in (14, 15, 16, 17, 18):
        assert f"{keys[user]} (submissions.zip: {keys[user]}_*): {LIMIT} not graded: " in needs
    assert "Absent, Al (Canvas user 99): nothing handed in" in needs
    assert "Exit status 3." in needs


def test_the_canvas_import_keeps_the_exports_columns_points_and_scale(canvas):
    got = {r["lms"].get("canvas"): r for r in learners(canvas / "out").values()}
    rows = table(canvas / "out" / "canvas-import.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{TITLES[LIMIT]} (901)"]
    # Canvas's importer sets the assignment's points from this row: the export's 10, not the course's 1.
    assert rows[1] == ["Points Possible", "", "", "", "", "10"]
    by_id = {r[1]: r for r in rows[2:]}
    # The roster's order; 99 handed nothing in, and 14, 15 and 16 nothing that could be run: no line, no 0, so that
    # Canvas keeps what it has (a blank would clear a grade given by hand: GradebookImporter#no_change_to_value?).
    assert list(by_id) == ["11", "12", "13"]
    for user in by_id:
        assert by_id[user][5] == score(got[user]["challenges"][LIMIT], 10), user
    assert by_id["11"][:5] == ["Doe, John", "11", "s11", "l11", "A"]
    assert by_id["11"][5] == "10" and by_id["13"][5] == "10"
    assert 0 < float(by_id["12"][5]) < 10
    # Read as Canvas's importer reads it: the assignment by its id, its points, every learner by their user id.
    points, scores = canvas_import_reads((canvas / "out" / "canvas-import.csv").read_bytes())
    assert points == {"901": 10.0}
    assert scores == {user: {"901": float(row[5])} for user, row in by_id.items()}
    unmatched = table(canvas / "out" / "canvas-unmatched.csv")
    assert unmatched[0] == ["learner", "name", "origin", "Canvas user id", "why"]
    why = {r[3]: r[4] for r in unmatched[1:]}
    assert why == {
        "17": "Canvas user 17 is not in the roster",
        "18": "Canvas user 18 is not in the roster",
        "": "no Canvas id: not handed in through Canvas's download",
    }
    said = (canvas / "stderr.txt").read_text()
    assert "left out of canvas-import.csv: 3" in said


def test_people_are_named_as_the_roster_names_them_with_their_points_and_the_absent_get_a_row(canvas):
    book = {r["LMS id"]: r for r in csv.DictReader((canvas / "out" / "gradebook.csv").open(encoding="utf-8"))}
    assert book["11"]["name"] == "Doe, John" and book["11"]["points"] == "10" and book["11"]["out of"] == "10"
    assert book["12"]["name"] == "Roe, Ann" and book["12"]["notes"].startswith("handed in late (Canvas)")
    absent = book["99"]
    heading = f"{TITLES[LIMIT]} ({LIMIT})"  # gradebook.csv heads a challenge's column by its title and slug
    assert absent["name"] == "Absent, Al" and absent[heading] == "missing" and absent["points"] == ""
    assert "nothing handed in" in absent["notes"]
    page = feedback_page(canvas / "out", book["12"]["learner"]).read_text()
    assert "Roe, Ann" in page and "doejohn" not in page
    cell = learners(canvas / "out")[book["12"]["learner"]]["challenges"][LIMIT]
    points = score(cell, 10)
    assert f"{points} of 10 points</strong>: {cell['passed']} of {cell['total']} cases passed" in page


def test_feedback_goes_back_through_canvas_reupload_each_page_named_for_its_learners_file(canvas):
    import zipfile

    with zipfile.ZipFile(canvas / "out" / "canvas-comments.zip") as z:
        names = z.namelist()
        owners = {canvas_reupload_owner(name): z.read(name) for name in names}
    # Canvas attaches a file to the submission of the user, and the file, that the name's first two numbers give.
    attachments = {"11": "100", "12": "102", "13": "103", "14": "104", "15": "105", "16": "106"}
    assert set(owners) == set(attachments.items())
    for (user, _), page in owners.items():
        assert f"{PEOPLE[int(user)]}".encode() in page.replace(b"&#34;", b'"') or user == "14"
    assert all(name.isascii() for name in names)  # nothing a learner chose


def test_grading_the_canvas_download_again_grades_nothing_and_writes_the_same_files(
    canvas, tmp_path, in_process_runners
):
    again = run_grader(
        in_process_runners, "class", canvas / "submissions.zip", "--out", canvas / "out", "--challenge", LIMIT,
        "--lms", "canvas", "--roster", canvas / "roster.csv",
    )  # fmt: skip
    assert again.returncode == 3, again.stderr
    assert "8 submissions, 8 already graded, grading 0" in again.stderr
    merged = run_grader(
        in_process_runners,
        "merge",
        canvas / "out",
        "--out",
        tmp_path,
        "--lms",
        "canvas",
        "--roster",
        canvas / "roster.csv",
    )
    assert merged.returncode == 3, merged.stderr
    for name in ("gradebook.json", "gradebook.csv", "canvas-import.csv", "canvas-unmatched.csv", "canvas-comments.zip"):
        assert (tmp_path / name).read_bytes() == (canvas / "out" / name).read_bytes(), name
    # Merged again without --lms: the import with the earlier run's scores is gone, not left to be uploaded.
    plain = run_grader(in_process_runners, "merge", canvas / "out", "--out", tmp_path)
    assert plain.returncode == 3, plain.stderr  # the stray file is still one
    assert not (tmp_path / "canvas-import.csv").exists() and not (tmp_path / "canvas-unmatched.csv").exists()
    assert not (tmp_path / "canvas-comments.zip").exists()
    assert "removed canvas-import.csv, left by an earlier run" in plain.stderr


def test_a_canvas_download_a_browser_unzipped_is_graded_as_its_zip(canvas, tmp_path, in_process_runners):
    # Some browsers unzip what they download: the folder holds the zip's files, links and all, as they would unpack.
    folder = tmp_path / "submissions"
    folder.mkdir()
    for member in CANVAS[:6]:  # the crafted entries cannot be files (a "/" in a name, not UTF-8, one name twice)
        if stat.S_ISLNK(member.mode):
            (folder / member.name).symlink_to(member.content.decode())
        elif member.compressed is None:
            (folder / member.name).write_bytes(member.content)
    (folder / "readme.txt").write_text("not a learner's")
    out = tmp_path / "out"
    shutil.copytree(canvas / "out" / "verdicts", out / "verdicts")  # graded already: only the intake differs
    # Exported where a decimal comma is the custom: Canvas writes ";" between fields, and 7,5 points.
    roster = canvas_export(ROSTER, [(TITLES[LIMIT], 901, 7.5)], semicolons=True, decimal_comma=True)
    (tmp_path / "roster.csv").write_bytes(roster)
    proc = run_grader(
        in_process_runners, "class", folder, "--out", out, "--challenge", LIMIT, "--lms", "canvas", "--roster",
        tmp_path / "roster.csv",
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    assert "grading 0 with" in proc.stderr  # every submission read as from the zip: the same keys
    written = (out / "canvas-import.csv").read_bytes()
    assert written.startswith(b"Student;ID;")  # the export's own separator
    points, scores = canvas_import_reads(written)
    assert points == {"901": 7.5}
    cells = {r["lms"]["canvas"]: r["challenges"][LIMIT] for r in learners(out).values() if r["lms"]}
    matched = [str(user) for user in PEOPLE if user < 14 and str(user) in cells]  # nothing unread, nothing of no one
    assert scores == {user: {"901": float(score(cells[user], 7.5))} for user in matched}  # no bomb, no climber
    assert "not named as Canvas names a learner's file" in learners(out)["readme.txt"]["error"]


ZOE = "Zoé Ünï"
MOODLE = [
    Member(moodle_entry("John Doe", 501, f"{LIMIT}.py"), RIGHT),  # Moodle 4.1 on: no "_" after the plugin
    Member(moodle_entry("John Doe", 501, "notes.txt"), "my notes"),
    Member(moodle_entry("Ann Roe", 502, f"src/{LIMIT}.py", legacy=True), WRONG),  # a folder of her own making
    Member(moodle_entry(ZOE, 503, f"{LIMIT}.py"), "/etc/passwd", mode=stat.S_IFLNK | 0o777),
    Member(moodle_entry("Bob Ray", 504, "onlinetext.html", plugin="onlinetext"), "<p>I pasted it here</p>"),
    # Bob's entry that would land in Ann's folder if it were unpacked (crafted): his own error.
    Member(moodle_entry("Bob Ray", 504, f"../../{moodle_entry('Ann Roe', 502, LIMIT + '.py')}"), RIGHT),
    Member(moodle_entry("Eve Bomb", 505, f"{LIMIT}.py", folders=False), b"#" * 200_000),  # flat; 1000 to 1
    Member(moodle_entry("Fay Lock", 506, f"{LIMIT}.py"), RIGHT, encrypted=True),
]
PARTICIPANTS = [(501, "John Doe"), (502, "Ann Roe"), (503, ZOE), (504, "Bob Ray"), (505, "Eve Bomb"), (506, "Fay Lock")]
WORKSHEET = [
    {"participant": number, "name": name, "email": f"{name.split()[0].lower()}@example.org", "status": "Submitted"}
    for number, name in PARTICIPANTS
] + [{"participant": 507, "name": "Gil Gone", "email": "gil@example.org", "status": "No submission"}]


@pytest.fixture(scope="module")
def moodle(tmp_path_factory, in_process_runners) -> Path:
    root = tmp_path_factory.mktemp("moodle")
    (root / "submissions.zip").write_bytes(build(MOODLE))
    (root / "worksheet.csv").write_bytes(moodle_worksheet(WORKSHEET, 100))
    proc = run_grader(
        in_process_runners, "class", root / "submissions.zip", "--out", root / "out",
        "--lms", "moodle", "--roster", root / "worksheet.csv",
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr  # four hand-ins nothing of which ran, and Gil handed nothing in
    (root / "stderr.txt").write_text(proc.stderr)
    return root


def test_a_moodle_download_is_a_learner_per_participant_each_hazard_its_own_learners_error(moodle):
    stderr = (moodle / "stderr.txt").read_text()
    assert "Traceback" not in stderr and "grading 2 with" in stderr
    got = learners(moodle / "out")
    assert sorted(got) == sorted(
        ["John Doe_501", "Ann Roe_502", f"{ZOE}_503", "Bob Ray_504", "Eve Bomb_505", "Fay Lock_506"]
    )
    assert got["John Doe_501"]["lms"] == {"moodle": "501"}
    cell = {learner: r["challenges"][LIMIT] for learner, r in got.items()}
    assert cell["John Doe_501"]["status"] == "pass" and cell["Ann Roe_502"]["status"] == "fail"
    assert any("notes.txt" in note for note in got["John Doe_501"]["notes"])
    assert any("onlinetext.html" in note for note in got["Bob Ray_504"]["notes"])
    for learner, why in [
        (f"{ZOE}_503", "a link; only regular files are read"),
        ("Bob Ray_504", "climbs out of the zip's folder"),
        ("Eve Bomb_505", "more than the 100 to 1 a zip bomb's guard allows"),
        ("Fay Lock_506", "encrypted"),
    ]:
        assert cell[learner]["status"] == "unread", learner
        verdict = json.loads((moodle / "out" / "verdicts" / file_name(learner) / f"{LIMIT}.json").read_text())
        assert why in verdict["result"]["message"], (learner, verdict["result"]["message"])
        assert f"  - {learner} (submissions.zip: " in stderr and f"): {LIMIT} not graded: " in stderr
    assert "  - Gil Gone (Participant 507): nothing handed in" in stderr
    assert {c["status"] for learner in got for slug, c in got[learner]["challenges"].items() if slug != LIMIT} == {
        "missing"
    }


def test_the_moodle_files_put_the_whole_score_on_the_worksheets_maximum_grade(moodle):
    got = learners(moodle / "out")
    total = len(EXERCISES)  # every challenge of the course (both tracks) is worth 1: a share of the 100

    def expected(r: dict) -> str:
        shares = [c["passed"] / c["total"] for c in r["challenges"].values() if c["status"] != "missing"]
        return lmsfiles.number(100 * sum(shares) / total)

    rows = table(moodle / "out" / "moodle-import.csv")
    assert rows[0] == ["Full name", "Email address", "Grade"]
    by_name = {r[0]: r[2] for r in rows[1:]}
    # Not Gil (nothing in), nor the four whose hand-in nothing of could be run: no line, so Moodle keeps its grade.
    assert list(by_name) == ["John Doe", "Ann Roe"]
    for learner, r in got.items():
        if r["name"] in by_name:
            assert by_name[r["name"]] == expected(r), learner
    assert by_name["John Doe"] == lmsfiles.number(100 / total)
    sheet = table(moodle / "out" / "moodle-worksheet.csv")
    assert sheet[0] == WORKSHEET_HEADER  # as Moodle wrote it: its upload finds Identifier, Grade, Last modified
    by_id = {r[0]: dict(zip(sheet[0], r, strict=True)) for r in sheet[1:]}
    assert list(by_id) == [f"Participant {n}" for n in range(501, 508)]
    assert by_id["Participant 501"]["Grade"] == by_name["John Doe"]
    for unread in (503, 504, 505, 506, 507):  # as the worksheet had them: Moodle's upload skips a blank grade
        assert (
            by_id[f"Participant {unread}"]["Grade"] == "" and by_id[f"Participant {unread}"]["Feedback comments"] == ""
        )
    assert by_id["Participant 501"]["Last modified (grade)"] == "-"  # left as it was: Moodle's check of edits since
    # Read as Moodle's worksheet upload reads it: a grade per participant, within the Maximum Grade.
    read = moodle_worksheet_reads((moodle / "out" / "moodle-worksheet.csv").read_bytes())
    assert {p: grade for p, (grade, _) in read.items()} == {
        row["Identifier"][len("Participant ") :]: float(row["Grade"]) if row["Grade"] else None
        for row in by_id.values()
    }
    comment = by_id["Participant 502"]["Feedback comments"]
    cell = got["Ann Roe_502"]["challenges"][LIMIT]
    assert f"{cell['passed']} of {cell['total']} cases passed" in comment and "Expected" not in comment
    assert table(moodle / "out" / "moodle-unmatched.csv") == [
        ["learner", "name", "origin", "Moodle participant id", "why"]
    ]


def test_feedback_goes_back_through_moodles_feedback_files_zip(moodle):
    import zipfile

    with zipfile.ZipFile(moodle / "out" / "moodle-feedback.zip") as z:
        owners = {moodle_import_owner(name): z.read(name) for name in z.namelist()}
    assert {owner for owner, _ in owners} == {str(n) for n, _ in PARTICIPANTS}
    assert {file for _, file in owners} == {"loopcraft-feedback.html"}
    for (participant, _), page in owners.items():
        assert dict(PARTICIPANTS)[int(participant)].encode() in page


def test_every_page_handed_back_through_an_lms_runs_and_loads_nothing(canvas, moodle):
    # The red team's finding: each page held 3 scripts and no Content-Security-Policy, yet Canvas attaches it to a
    # comment and Moodle serves it from its own site.
    import zipfile

    pages = {}
    for out, upload in ((canvas / "out", "canvas-comments.zip"), (moodle / "out", "moodle-feedback.zip")):
        with zipfile.ZipFile(out / upload) as z:
            pages |= {f"{upload}:{name}": z.read(name).decode("utf-8") for name in z.namelist()}
        pages |= {str(path): path.read_text(encoding="utf-8") for path in (out / "feedback").iterdir()}
    assert len(pages) > 10
    assert {where: inert_problems(html) for where, html in pages.items() if inert_problems(html)} == {}


def test_a_moodle_download_a_browser_unzipped_with_a_decimal_comma_worksheet(moodle, tmp_path, in_process_runners):
    folder = tmp_path / "download"
    for member in MOODLE[:3]:
        (folder / member.name).parent.mkdir(parents=True, exist_ok=True)
        (folder / member.name).write_bytes(member.content)
    # Zoé's folder a link to John's, Bob's file a FIFO: neither is followed nor opened, each Zoé's and Bob's own error.
    (folder / moodle_entry(ZOE, 503, "")).symlink_to(folder / moodle_entry("John Doe", 501, ""))
    (folder / moodle_entry("Bob Ray", 504, "")).mkdir()
    os.mkfifo(folder / moodle_entry("Bob Ray", 504, f"{LIMIT}.py"))
    (tmp_path / "worksheet.csv").write_bytes(moodle_worksheet(WORKSHEET, 10, decimal_comma=True))
    out = tmp_path / "out"
    shutil.copytree(moodle / "out" / "verdicts", out / "verdicts")
    proc = run_grader(
        in_process_runners, "class", folder, "--out", out, "--lms", "moodle", "--roster", tmp_path / "worksheet.csv"
    )
    assert proc.returncode == 3, proc.stderr  # Bob's FIFO ran nothing; Eve, Fay and Gil are not in this download
    assert "grading 0 with" in proc.stderr  # Moodle's folders read as from the zip
    sheet = {r[0]: r[4] for r in table(out / "moodle-worksheet.csv")[1:]}
    total = len(EXERCISES)
    assert sheet["Participant 501"] == lmsfiles.number(10 / total, ",")  # the site's own decimal mark
    read = moodle_worksheet_reads((out / "moodle-worksheet.csv").read_bytes(), decimal_comma=True)
    assert read["501"][0] == round(10 / total, 2)
    got = learners(out)
    zoe = got[f"{ZOE}_503"]
    assert zoe["challenges"][LIMIT]["status"] == "missing" and "a link; only regular files are read" in zoe["notes"][0]
    assert got["Bob Ray_504"]["challenges"][LIMIT]["status"] == "unread"
    bob = json.loads((out / "verdicts" / file_name("Bob Ray_504") / f"{LIMIT}.json").read_text())
    assert "not a regular file" in bob["result"]["message"]


def test_a_moodle_gradebook_export_matches_learners_by_their_one_full_name(moodle, tmp_path, in_process_runners):
    export = [
        ["First name", "Last name", "ID number", "Institution", "Department", "Email address", "Course total (Real)"],
        ["John", "Doe", "1001", "", "", "john@example.org", "-"],
        ["Ann", "Roe", "1002", "", "", "ann@example.org", "-"],
        ["Ann", "Roe", "1003", "", "", "ann.roe@example.org", "-"],  # two of one name: neither is matched
        [unicodedata.normalize("NFD", "Zoé"), "Ünï", "1004", "", "", "zoe@example.org", "-"],  # decomposed accents
    ]
    (tmp_path / "export.csv").write_text(csv_text(export))
    proc = run_grader(
        in_process_runners, "merge", moodle / "out", "--out", tmp_path / "out",
        "--lms", "moodle", "--roster", tmp_path / "export.csv",
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr  # four learners not matched: listed, and the run says so
    rows = table(tmp_path / "out" / "moodle-import.csv")
    assert rows[0][:3] == ["First name", "Last name", "ID number"] and rows[0][3] == "Email address"
    assert [r[2] for r in rows[1:]] == ["1001"]  # Zoé (1004) is matched, and nothing of hers could be run
    why = {r[0]: r[4] for r in table(tmp_path / "out" / "moodle-unmatched.csv")[1:]}
    assert why["Ann Roe_502"].startswith("2 roster rows have this name")
    assert why["Bob Ray_504"].startswith("no roster row has this name")
    assert set(why) == {"Ann Roe_502", "Bob Ray_504", "Eve Bomb_505", "Fay Lock_506"}


def test_a_roster_that_is_not_the_lms_s_export_stops_the_run_before_anything_is_graded(tmp_path, in_process_runners):
    (tmp_path / "class.zip").write_bytes(build([Member(canvas_name("doejohn", 11, 100, "limit.py"), RIGHT)]))
    roster = tmp_path / "worksheet.csv"
    roster.write_bytes(moodle_worksheet(WORKSHEET, 100))
    out = tmp_path / "out"
    wrong = run_grader(
        in_process_runners, "class", tmp_path / "class.zip", "--out", out, "--lms", "canvas", "--roster", roster
    )
    assert (
        wrong.returncode == 2
        and "worksheet.csv:1: not a Canvas gradebook export (no Student or ID column)" in wrong.stderr
    )
    assert not out.exists()
    alone = run_grader(in_process_runners, "class", tmp_path / "class.zip", "--out", out, "--lms", "canvas")
    assert alone.returncode == 2 and "--lms and --roster go together" in alone.stderr
    (tmp_path / "dup.csv").write_bytes(canvas_export([ROSTER[0], ROSTER[0]], [(TITLES[LIMIT], 901, 10)]))
    twice = run_grader(
        in_process_runners,
        "class",
        tmp_path / "class.zip",
        "--out",
        out,
        "--lms",
        "canvas",
        "--roster",
        tmp_path / "dup.csv",
    )
    assert twice.returncode == 2 and "dup.csv:4: ID 11 again (first on line 3)" in twice.stderr
    assert not out.exists()


def test_points_name_challenges_of_their_track(tmp_path):
    course = course_copy(tmp_path, [LIMIT])
    track = course / "exercises" / "build-an-agent" / "track.yaml"
    track.write_text(track.read_text() + f"points:\n  {LIMIT}: 3\n  no-such-challenge: 2\n")
    with pytest.raises(ExerciseError) as caught:
        load_course(course)
    assert [str(p) for p in caught.value.errors] == [
        "exercises/build-an-agent/track.yaml:7: points: 'no-such-challenge' is not a challenge of this track"
    ]
    track.write_text(track.read_text().replace("  no-such-challenge: 2\n", ""))
    assert load_course(course)[0].points_of(LIMIT) == 3 and load_course(course)[0].points_of("other") == 1


def test_a_learner_whose_lms_key_a_spreadsheet_would_run_is_listed_never_altered(tmp_path):
    # Moodle matches an import's rows by a key (email, ID number, username) that a learner may choose: one starting
    # with "-", "+" or "@" was written neutralised ("'-eve@..."), which Moodle matches with no one, while the run said
    # every learner was in the import. Such a learner is listed instead; a name is only shown, so neutralised.
    roster = tmp_path / "worksheet.csv"
    roster.write_text(
        csv_text(
            [
                ["Identifier", "Full name", "Email address", "Status", "Grade"],
                ["Participant 11", "Eve Minus", "-eve@example.org", "", ""],
                ["Participant 12", "Ann Plus", "+ann@example.org", "", ""],
                ["Participant 13", '=HYPERLINK("http://x.invalid")', "hal@example.org", "", ""],
            ]
        ),
        encoding="utf-8",
    )
    cell = {"status": "pass", "passed": 3, "total": 3}
    rows = [
        {"learner": f"{name}_{user}", "name": name, "origin": "", "error": None, "notes": [], "lms": {"moodle": user},
         "challenges": {LIMIT: cell}}
        for name, user in (("Eve Minus", "11"), ("Ann Plus", "12"), ('=HYPERLINK("http://x.invalid")', "13"))
    ]  # fmt: skip
    told = lmsfiles.write(
        tmp_path, {"challenges": [LIMIT], "learners": rows}, lms.prepare("moodle", roster, [TRACK], [LIMIT])
    )
    assert told[0] == "moodle-import.csv: 1 of the roster's 3 learners"
    imported = table(tmp_path / "moodle-import.csv")
    assert imported[1:] == [['\'=HYPERLINK("http://x.invalid")', "hal@example.org", "1"]]
    listed = {r[3]: r[4] for r in table(tmp_path / "moodle-unmatched.csv")[1:]}
    assert set(listed) == {"11", "12"} and all("enter this learner's grade by hand" in why for why in listed.values())
    cells = [c for path in tmp_path.glob("moodle-*.csv") for r in table(path) for c in r]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")]
