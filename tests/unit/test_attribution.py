"""Attribution as a proof, generated over the whole name space: downloads named by Canvas's and Moodle's own rules
(tests/lms_rules.py, restated from their source) for classes whose names hold digits and underscores anywhere, late
and text entries, several files, anonymity, blind marking, team assignments with group ids that are also
participants' numbers, the learners in no group, and rosters that are current, stale or missing learners. Read by
the class's intake with the roster's identifier, matched and accounted for (loopcraft/classroom/lms.py,
`accounted`). What is asserted is the LMS's side of it: a roster row receives only its own learner's work (every
file's marker is theirs), every hand-in is given to the roster or listed with why, and the learners the names leave
no doubt about are all given. No grading runs here."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from loopcraft import classroom
from loopcraft.classroom import handback, lms, lmsfiles, phpcsv, read_class, zipped
from loopcraft.course.project import Project
from tests.lms_rules import (
    canvas_entry,
    canvas_export,
    canvas_reupload_owner,
    moodle_entry,
    moodle_import_owner,
    moodle_team_entry,
    moodle_worksheet,
    php_fgetcsv_all,
    php_fputcsv,
)
from tests.zips import LIMIT, Member, build

TRACK = classroom.course(Project())[0]
EXERCISES = classroom.course_exercises(Project(), [TRACK])
TITLE = next(ex.title for ex in EXERCISES if ex.slug == LIMIT)
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Names as learners may set them: letters of any script, digits and underscores anywhere, the punctuation names hold.
NAME = st.text(
    st.characters(categories=["L", "Nd"]) | st.sampled_from(" ,'-._") | st.sampled_from("_0123456789"),
    min_size=1,
    max_size=14,
).filter(lambda name: any(c.isalnum() for c in name))
# Ids small and large: a small one is what a digit run in a name or a file reads as.
IDS = st.one_of(st.integers(1, 40), st.integers(10**5, 10**6))
FILE = st.text(st.sampled_from("abc_-.0123456789"), max_size=6).map(lambda s: f"{s}.py")


def rows_of(read: list) -> dict:
    """The gradebook rows of an intake, as gradebook.row writes them (every hand-in read counted as graded)."""
    learners = []
    for r in read:
        source = r.sources.get(LIMIT)
        status = "missing" if source is None else "fail" if source.error is None else "unread"
        learners.append(
            {"learner": r.id, "name": r.name, "origin": r.origin, "error": r.error, "notes": r.notes, "lms": r.lms,
             "unattributed": r.unattributed, "challenges": {LIMIT: {"status": status, "passed": 0, "total": 1}}}
        )  # fmt: skip
    return {"challenges": [LIMIT], "learners": learners}


def marker(learner) -> str | None:
    source = learner.sources.get(LIMIT)
    return source.text if source is not None and source.text is not None else None


@st.composite
def canvas_classes(draw):
    """(entries, roster learners, whose each entry is): learners with one to three entries (uploads, text entries,
    URLs), late or not, on the roster as named, renamed since the export, or gone from it; roster learners who
    handed nothing in."""
    users = draw(st.lists(IDS, min_size=1, max_size=5, unique=True))
    attachments = iter(draw(st.lists(st.integers(1, 10**6), min_size=15, max_size=15, unique=True)))
    entries, roster, owners = [], [], {}
    for user in users:
        name, late = draw(NAME), draw(st.booleans())
        kinds = draw(st.lists(st.sampled_from(["upload", "upload", "text", "url"]), min_size=1, max_size=3))
        for k, kind in enumerate(kinds):
            entry = canvas_entry(name, user, draw(FILE), attachment=next(attachments), late=late, kind=kind)
            if entry not in owners:
                entries.append(Member(entry, f"# learner {user} entry {k}"))
                owners[entry] = str(user)
        where = draw(st.sampled_from(["current", "current", "renamed", "gone"]))
        if where != "gone":
            roster.append({"name": name if where == "current" else draw(NAME), "id": user})
    for user in draw(st.lists(IDS, max_size=2, unique=True)):
        if user not in users:
            roster.append({"name": draw(NAME), "id": user})
    return entries, roster, owners


def canvas_run(entries, roster):
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "s.zip").write_bytes(build(entries))
        (Path(tmp) / "roster.csv").write_bytes(canvas_export(roster, [(TITLE, 77, 10)]))
        export = lms.prepare("canvas", Path(tmp) / "roster.csv", [TRACK], [LIMIT])
        read = read_class(Path(tmp) / "s.zip", EXERCISES, LIMIT, lms.identifier(export))
    doc = rows_of(read)
    matched = lms.match(doc, export)
    lms.accounted(doc, export, matched)  # every hand-in given or listed; every row given only its own
    return export, read, doc, matched


@SETTINGS
@given(canvas_classes())
# The two: a name ending in "_<digits>", and Eve (1234) renamed "Roe, Ann_2222", the roster as current.
@example(([Member(canvas_entry("Lee_7", 310111, "agent.py", attachment=8810011), "# learner 310111 entry 0")],
          [{"name": "Lee_7", "id": 310111}, {"name": "Zed, Al", "id": 7}], {}))  # fmt: skip
@example(([Member(canvas_entry("Roe, Ann_2222", 1234, "hw.py", attachment=5678), "# learner 1234 entry 0")],
          [{"name": "Roe, Ann", "id": 2222}, {"name": "Roe, Ann_2222", "id": 1234}], {}))  # fmt: skip
def test_a_canvas_roster_row_receives_only_its_own_learners_work_and_every_hand_in_is_given_or_listed(generated):
    entries, roster, _ = generated
    export, read, doc, matched = canvas_run(entries, roster)
    for i, row in matched.rows.items():  # Canvas's rule: the import's line and the comment go to this user
        user = export.roster.rows[i]["ID"]
        learner = next(r for r in read if r.id == row["learner"])
        assert learner.unattributed is None and learner.lms["canvas"] == user
        if marker(learner) is not None:
            assert marker(learner).startswith(f"# learner {user} "), (user, marker(learner))
        page = handback.entry_name("canvas", row["lms"])
        if page is not None:
            assert canvas_reupload_owner(page)[0] == user
    given = {id(r) for r in matched.rows.values()}
    for r in doc["learners"]:  # the rest is listed, with why
        assert id(r) in given or any(r is u for u, _ in matched.unmatched), r["learner"]


@SETTINGS
@given(canvas_classes())
def test_a_canvas_learner_whose_names_leave_no_doubt_is_always_given_their_own_row(generated):
    entries, roster, owners = generated
    export, read, _, matched = canvas_run(entries, roster)
    on_roster = {str(r["id"]): r["name"] for r in roster}
    given_users = {export.roster.rows[i]["ID"] for i in matched.rows}
    for entry in entries:
        user = owners[entry.name]
        if {r.user for r in zipped.canvas_readings(entry.name)} != {user} or user not in on_roster:
            continue  # the name reads as another user's too (listed, never given), or its learner left the course
        downloaded = next(r for r in roster if str(r["id"]) == user)["name"]
        own = [e for e in entries if owners[e.name] == user]
        current = canvas_entry(downloaded, int(user), "x.py", attachment=1).split("_1_x.py")[0]
        if all(e.name.startswith(current) for e in own) and any(".py" in e.name for e in own):
            assert user in given_users, (entry.name, on_roster)


@st.composite
def moodle_classes(draw):
    """(entries, worksheet learners, mode, whose each entry is): participants with names of any characters, in one
    of Moodle's modes (names shown, blind marking, a team assignment with or without names), groups whose ids are
    also participants' numbers, the learners in no group; online text beside files; and, in a blind download, a
    crafted folder named as a team would be, with a participant's number for its group id."""
    mode = draw(st.sampled_from(["names", "blind", "teams", "blind teams"]))
    numbers = draw(st.lists(st.integers(1, 30), min_size=1, max_size=6, unique=True))
    groups = {gid: draw(NAME.filter(lambda n: n.strip() and n != "Default group")) for gid in draw(
        st.lists(st.sampled_from(numbers) | st.integers(31, 40), max_size=3, unique=True))}  # fmt: skip
    sheet, entries, owners = [], [], {}
    for number in numbers:
        name = draw(NAME)
        group = draw(st.sampled_from([None, *groups]))
        sheet.append({"participant": number, "name": name, "email": f"p{number}@x.org",
                      "group": groups.get(group), "text": 'said \\"hi\\"'})  # fmt: skip
        if "teams" not in mode:
            form = draw(st.sampled_from(["folders", "legacy", "flat"]))
            entry = moodle_entry(name, number, f"{LIMIT}.py", blind=mode == "blind", legacy=form == "legacy",
                                 folders=form != "flat")  # fmt: skip
            entries.append(Member(entry, f"# participant {number}"))
            owners[entry] = f"# participant {number}"
            if draw(st.booleans()):
                entries.append(Member(moodle_entry(name, number, "onlinetext.html", plugin="onlinetext",
                                                   blind=mode == "blind"), "<p>code</p>"))  # fmt: skip
    if "teams" in mode:
        for gid, group in groups.items():
            entry = moodle_team_entry(group, gid, f"{LIMIT}.py")
            entries.append(Member(entry, f"# group {group}"))
        if any(learner["group"] is None for learner in sheet):
            entries.append(Member(moodle_team_entry(None, None, f"{LIMIT}.py"), "# group Default group"))
    elif mode == "blind" and groups:
        gid, group = next(iter(groups.items()))
        entries.append(Member(moodle_team_entry(group, gid, f"{LIMIT}.py"), f"# group {group}"))
    unique = {}
    for e in entries:
        unique.setdefault(e.name, e)
    return list(unique.values()), sheet, mode


@SETTINGS
@given(moodle_classes())
def test_a_moodle_roster_row_receives_only_its_own_or_its_teams_work_and_every_hand_in_is_given_or_listed(generated):
    entries, sheet, mode = generated
    blind, teams = "blind" in mode, "teams" in mode
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "s.zip").write_bytes(build(entries))
        (Path(tmp) / "w.csv").write_bytes(moodle_worksheet(sheet, 100, blind=blind, teams=teams, online=True))
        export = lms.prepare("moodle", Path(tmp) / "w.csv", [TRACK], [LIMIT])
        read = read_class(Path(tmp) / "s.zip", EXERCISES, LIMIT, lms.identifier(export))
    doc = rows_of(read)
    matched = lms.match(doc, export)
    lms.accounted(doc, export, matched)
    by_id = {learner.id: learner for learner in read}
    pages = {id(r): handback.entry_name("moodle", ids) for ids, r in lms.handback_ids(export, matched)}
    for i, row in matched.rows.items():
        number = export.roster.rows[i]["Identifier"].split()[-1]
        person = next(p for p in sheet if str(p["participant"]) == number)
        got = marker(by_id[row["learner"]])
        if teams:  # a team's work reaches its members, as the worksheet's Group column says who they are
            assert got == f"# group {person['group'] or 'Default group'}", (person, got)
        else:  # never a team's folder given to the participant whose number its group id is
            assert got in (f"# participant {number}", None), (number, got)
        assert moodle_import_owner(pages[id(row)])[0] in {str(p["participant"]) for p in sheet}
    if not teams:  # in a download of learners' folders, every participant's file is given to them
        given = {export.roster.rows[i]["Identifier"].split()[-1] for i in matched.rows}
        for learner in read:
            if marker(learner) and marker(learner).startswith("# participant "):
                assert marker(learner).split()[-1] in given, learner.id
    given_rows = {id(r) for r in matched.rows.values()}
    for r in doc["learners"]:
        assert id(r) in given_rows or any(r is u for u, _ in matched.unmatched), r["learner"]


def test_a_blind_team_folder_is_never_given_to_the_participant_with_its_group_id(tmp_path):
    # The issue's case: group 7's folder "Team A_7" under blind marking, participant 7 in no group of it.
    entries = [
        Member(moodle_entry("x", 5, f"{LIMIT}.py", blind=True), "# participant 5"),
        Member(moodle_team_entry("Team A", 7, f"{LIMIT}.py"), "# group Team A"),
    ]
    (tmp_path / "s.zip").write_bytes(build(entries))
    sheet = [{"participant": n, "name": "", "email": ""} for n in (5, 7)]
    (tmp_path / "w.csv").write_bytes(moodle_worksheet(sheet, 100, blind=True))
    export = lms.prepare("moodle", tmp_path / "w.csv", [TRACK], [LIMIT])
    read = read_class(tmp_path / "s.zip", EXERCISES, LIMIT, lms.identifier(export))
    matched = lms.match(rows_of(read), export)
    assert [r["lms"] for r in matched.rows.values()] == [{"moodle": "5"}]
    ((team, why),) = matched.unmatched
    assert team["name"] == "Team A" and "blind marking" in why and "grade by hand" in why
    # Under blind marking the import has no column Moodle's grade import could match a row by: not written.
    assert not lmsfiles.matchable(export) and "moodle-import.csv" not in lmsfiles.files(export)


TEXT = st.lists(
    st.lists(st.text(st.sampled_from('ab \\",;\n\t'), max_size=8), min_size=1, max_size=4), min_size=1, max_size=4
)


def _as_moodle_reads(rows: list[list[str]]) -> list[list[str]]:
    """What Moodle's upload makes of rows it can read at all: a row of one empty field is a blank line to it."""
    return [row for row in rows if row != [""]]


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_what_loopcraft_writes_for_moodle_is_read_back_by_php_fgetcsv_as_it_was(rows):
    assert php_fgetcsv_all(phpcsv.write(rows)) == _as_moodle_reads(rows)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_a_file_moodle_wrote_is_read_as_php_fgetcsv_reads_it(rows):
    written = php_fputcsv(rows)
    assert phpcsv.read(written) == php_fgetcsv_all(written)


def test_a_worksheet_whose_online_text_holds_a_php_escape_is_read_and_written_back_for_moodle(tmp_path):
    # Moodle itself accepts it: its fgetcsv takes \" inside quotes as text. Python's csv would end the field there.
    sheet = [{"participant": 3, "name": "Ann Roe", "email": "a@x.org", "text": 'print(\\"hi\\") # "quoted"'}]
    data = moodle_worksheet(sheet, 10, online=True)
    assert b'\\"hi\\"' in data
    (tmp_path / "w.csv").write_bytes(data)
    export = lms.prepare("moodle", tmp_path / "w.csv", [TRACK], [LIMIT])
    assert export.roster.rows[0]["Online text"] == 'print(\\"hi\\") # "quoted"'
    doc = {"challenges": [LIMIT], "learners": [
        {"learner": "Ann Roe_3", "name": "Ann Roe", "origin": "s.zip", "error": None, "notes": [], "unattributed": None,
         "lms": {"moodle": "3"}, "challenges": {LIMIT: {"status": "pass", "passed": 4, "total": 4}}}]}  # fmt: skip
    lmsfiles.write(tmp_path, doc, export)
    back = (tmp_path / "moodle-worksheet.csv").read_bytes()
    assert moodle_worksheet_reads_php(back) == {"3": "10"}
    assert php_fgetcsv_all(back.decode())[1][list(export.roster.header).index("Online text")] == (
        'print(\\"hi\\") # "quoted"'
    )


def moodle_worksheet_reads_php(data: bytes) -> dict[str, str]:
    """Grade by participant, as Moodle's worksheet upload reads the file (fgetcsv)."""
    header, *rows = php_fgetcsv_all(data.decode("utf-8"))
    return {row[0].split()[-1]: row[header.index("Grade")] for row in rows}


def test_a_text_entry_or_online_text_is_named_to_the_teacher_and_never_scored(tmp_path, in_process_runners):
    from tests.helpers import run_grader

    canvas = [Member(canvas_entry("Doe, John", 11, "", attachment=1, kind="text"), "<p>def run_agent(): ...</p>")]
    (tmp_path / "c.zip").write_bytes(build(canvas))
    (tmp_path / "c.csv").write_bytes(canvas_export([{"name": "Doe, John", "id": 11}], [(TITLE, 77, 10)]))
    proc = run_grader(
        in_process_runners, "class", tmp_path / "c.zip", "--out", tmp_path / "c", "--challenge", LIMIT,
        "--lms", "canvas", "--roster", tmp_path / "c.csv",
    )  # fmt: skip
    assert proc.returncode == 3 and "Traceback" not in proc.stderr
    needs = proc.stderr[proc.stderr.index("NEEDS YOU") :]
    assert f"doejohn_11 (c.zip: doejohn_11_*): {LIMIT} not graded: handed in a text entry" in needs
    # No line, so no blank where Canvas may have a grade given by hand (a blank would clear it).
    assert (tmp_path / "c" / "canvas-import.csv").read_text().count("\n") == 2  # the header and Points Possible
    moodle = [Member(moodle_entry("Ann Roe", 5, "onlinetext.html", plugin="onlinetext"), "<p>code</p>")]
    (tmp_path / "m.zip").write_bytes(build(moodle))
    sheet = [{"participant": 5, "name": "Ann Roe", "email": "a@x.org"}]
    (tmp_path / "m.csv").write_bytes(moodle_worksheet(sheet, 10))
    proc = run_grader(
        in_process_runners, "class", tmp_path / "m.zip", "--out", tmp_path / "m", "--challenge", LIMIT,
        "--lms", "moodle", "--roster", tmp_path / "m.csv",
    )  # fmt: skip
    assert proc.returncode == 3 and f"{LIMIT} not graded: handed in online text" in proc.stderr
    sheet_back = php_fgetcsv_all((tmp_path / "m" / "moodle-worksheet.csv").read_text())
    assert sheet_back[1][sheet_back[0].index("Grade")] == ""  # blank: Moodle's upload leaves the grade as it is


def test_in_a_canvas_import_of_several_columns_a_column_with_no_score_keeps_the_exports_value(tmp_path):
    other = next(ex for ex in EXERCISES if ex.slug != LIMIT)
    roster = canvas_export([{"name": "Doe, John", "id": 11}], [(TITLE, 77, 10), (other.title, 78, 10)]).decode()
    # The teacher graded the other assignment by hand: 7 of 10 in the export.
    roster = roster.replace('"Doe, John",11,,,,,,,', '"Doe, John",11,,,,,7,,')
    (tmp_path / "r.csv").write_text(roster)
    export = lms.prepare("canvas", tmp_path / "r.csv", [TRACK], [LIMIT, other.slug])
    doc = {"challenges": [LIMIT, other.slug], "learners": [
        {"learner": "doejohn_11", "name": "doejohn", "origin": "s.zip", "error": None, "notes": [], "unattributed": None,
         "lms": {"canvas": "11"}, "challenges": {LIMIT: {"status": "pass", "passed": 4, "total": 4},
                                                 other.slug: {"status": "missing", "passed": 0, "total": 3}}}]}  # fmt: skip
    lmsfiles.write(tmp_path, doc, export)
    header, points, line = (tmp_path / "canvas-import.csv").read_text().splitlines()
    assert line.split(",")[-2:] == ["10", "7"]  # Canvas reads 7 beside its 7 as no change; a blank would clear it


def test_a_team_folder_graded_without_a_roster_goes_to_its_members_once_the_teams_worksheet_is_given(tmp_path):
    # A shard graded with no roster read "Team A_3" as participant 3's folder (by the name alone); the merge's roster,
    # the team assignment's worksheet, says it is group 3's, and who is in it.
    (tmp_path / "s.zip").write_bytes(build([Member(moodle_team_entry("Team A", 3, f"{LIMIT}.py"), "# group Team A")]))
    read = read_class(tmp_path / "s.zip", EXERCISES, LIMIT)
    assert read[0].lms == {"moodle": "3"}
    sheet = [{"participant": n, "name": f"P{n}", "email": f"{n}@x.org", "group": g} for n, g in
             ((3, None), (8, "Team A"), (9, "Team A"))]  # fmt: skip
    (tmp_path / "w.csv").write_bytes(moodle_worksheet(sheet, 10, teams=True))
    export = lms.prepare("moodle", tmp_path / "w.csv", [TRACK], [LIMIT])
    matched = lms.match(rows_of(read), export)
    assert sorted(export.roster.rows[i]["Identifier"] for i in matched.rows) == ["Participant 8", "Participant 9"]


def test_a_name_that_reads_as_two_learners_is_listed_beside_both_and_given_to_neither(tmp_path, in_process_runners):
    from tests.helpers import run_grader

    # Eve (1234) renamed herself "Roe, Ann_2222": her file reads as Ann's (2222) or as hers.
    (tmp_path / "c.zip").write_bytes(
        build([Member(canvas_entry("Roe, Ann_2222", 1234, "hw.py", attachment=5678), "1/0")])
    )
    roster = [{"name": "Roe, Ann", "id": 2222}, {"name": "Smith, Eve", "id": 1234}]  # exported before she renamed
    (tmp_path / "c.csv").write_bytes(canvas_export(roster, [(TITLE, 77, 10)]))
    proc = run_grader(
        in_process_runners, "class", tmp_path / "c.zip", "--out", tmp_path / "c", "--challenge", LIMIT,
        "--lms", "canvas", "--roster", tmp_path / "c.csv",
    )  # fmt: skip
    assert proc.returncode == 3
    needs = proc.stderr[proc.stderr.index("NEEDS YOU") :]
    assert "reads, by Canvas's rules, as Canvas user 1234 ('Smith, Eve') or as Canvas user 2222 ('Roe, Ann')" in needs
    entry = "roeann_2222_1234_5678_hw.py"
    assert f"Roe, Ann (Canvas user 2222): nothing given to them; {entry}, listed above, may be theirs" in needs
    assert f"Smith, Eve (Canvas user 1234): nothing given to them; {entry}, listed above, may be theirs" in needs
    assert (tmp_path / "c" / "canvas-import.csv").read_text().count("\n") == 2  # no line for either
