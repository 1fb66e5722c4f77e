"""A merge that cannot be forged (issue 38): every verdict `class` keeps, and every gradebook it writes, carries an
HMAC-SHA256 made with the teacher's verdict key, kept outside every class folder (loopcraft/classroom/signing.py).
The red team's attack (a verdict edited to pass, its gradebook cell edited to agree, merged into Canvas's import) is
refused naming the learner and the file; a later `class` run into that folder grades the forged verdict again
instead of keeping it; a shard signed with another key is refused, or graded again with `--regrade`.

The commands run in this process, grading in the session's in-process runners (tests.helpers.run_grader): what is
under test is what is done with verdicts, and the code graded is the course's own right and wrong solutions. Every
command uses the session's default key (tests/conftest.py points XDG_CONFIG_HOME at the session's folder) unless
it names another. The class's first grading makes its challenge's known-mistake catalogue (loopcraft/authoring/mistakes.py,
`catalogues`) in a trusted Pyodide runner of its own, the course copy's build cache being empty: so this file starts
Pyodide, and is an integration test."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopcraft.classroom import signing
from loopcraft.classroom.printable import file_name
from loopcraft.classroom.store import Signer, VerdictStore, fingerprint
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.load import find_exercise
from loopcraft.course.project import Project
from tests.helpers import course_copy, run_grader
from tests.lms_rules import canvas_entry, canvas_export
from tests.zips import LIMIT, RIGHT, WRONG, Member, build

RIGHT_USER, WRONG_USER = "11", "13"


@pytest.fixture(scope="module")
def canvas(tmp_path_factory, in_process_runners) -> Path:
    """A Canvas assignment of one challenge, worth 10 points: one learner right, one wrong; graded into shard/."""
    root = tmp_path_factory.mktemp("trust")
    members = [
        Member(canvas_entry("S11", 11, "limit.py", attachment=100), RIGHT),
        Member(canvas_entry("S13", 13, "mine.py", attachment=102), WRONG),
    ]
    (root / "class.zip").write_bytes(build(members))
    course = course_copy(root, [LIMIT])
    title = find_exercise(course, LIMIT).title
    roster = [{"name": f"S{user}", "id": user, "sis": f"s{user}", "login": f"l{user}"} for user in (11, 13)]
    (root / "roster.csv").write_bytes(canvas_export(roster, [(title, 901, 10)]))
    graded = grade(in_process_runners, root, root / "shard")
    assert graded.returncode == 0, graded.stderr
    return root


def grade(runners, root: Path, out: Path, *extra):
    return run_grader(
        runners, "class", root / "class.zip", "--out", out, "--challenge", LIMIT, "--lms", "canvas",
        "--roster", root / "roster.csv", "--root", root / "course", *extra,
    )  # fmt: skip


def merge(runners, root: Path, out: Path, *shards_and_options):
    lms = ["--lms", "canvas", "--roster", root / "roster.csv", "--root", root / "course"]
    return run_grader(runners, "merge", *shards_and_options, "--out", out, *lms)


def learner_of(shard: Path, user: str) -> str:
    book = json.loads((shard / "gradebook.json").read_text())
    return next(r["learner"] for r in book["learners"] if r["lms"].get("canvas") == user)


def record_path(shard: Path, learner: str) -> Path:
    return shard / "verdicts" / file_name(learner) / f"{LIMIT}.json"


def canvas_scores(out: Path) -> dict[str, str]:
    rows = list(csv.reader((out / "canvas-import.csv").open(encoding="utf-8")))
    return {row[1]: row[-1] for row in rows[2:]}


def forge(shard: Path, learner: str) -> None:
    """The red team's attack: the learner's verdict edited to pass every case (its source left alone, so its key
    still matches), written as the store writes it, and their gradebook cell edited to agree."""
    path = record_path(shard, learner)
    record = json.loads(path.read_text())
    for case in record["result"]["tests"]:
        case["status"] = "pass"
        if not case.get("private"):
            case.pop("message", None)
    record["result"].update(status="pass", message=None)
    path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    book = json.loads((shard / "gradebook.json").read_text())
    for row in book["learners"]:
        if row["learner"] == learner:
            cell = row["challenges"][LIMIT]
            cell.update(status="pass", passed=cell["total"])
    (shard / "gradebook.json").write_text(json.dumps(book, indent=1, ensure_ascii=False) + "\n")


@pytest.fixture
def forged(canvas, tmp_path) -> tuple[Path, str]:
    """A copy of the honest shard, the wrong learner's verdict forged to pass."""
    shard = tmp_path / "forged"
    shutil.copytree(canvas / "shard", shard)
    learner = learner_of(shard, WRONG_USER)
    forge(shard, learner)
    return shard, learner


def nothing_written(out: Path) -> bool:
    return (not out.exists() or not any(out.iterdir())) and not list(out.parent.glob(f".{out.name}.merging-*"))


def test_an_honest_shard_merges_into_the_files_it_holds(canvas, tmp_path, in_process_runners):
    proc = merge(in_process_runners, canvas, tmp_path / "merged", canvas / "shard")
    assert proc.returncode == 0, proc.stderr
    for name in ("gradebook.json", "gradebook.csv", "canvas-import.csv"):
        assert (tmp_path / "merged" / name).read_bytes() == (canvas / "shard" / name).read_bytes(), name
    scores = canvas_scores(tmp_path / "merged")
    assert scores[RIGHT_USER] == "10" and float(scores[WRONG_USER]) < 10


def test_the_red_team_s_forged_pass_is_refused_naming_the_learner_and_its_file(
    canvas, forged, tmp_path, in_process_runners
):
    shard, learner = forged
    proc = merge(in_process_runners, canvas, tmp_path / "merged", shard)
    assert proc.returncode == 2, proc.stderr  # before: 0, and Canvas's import gave the wrong learner 10 of 10
    assert "Traceback" not in proc.stderr
    assert f"{record_path(shard, learner)}:" in proc.stderr and repr(learner) in proc.stderr, proc.stderr
    assert "not signed with the verdict key" in proc.stderr
    assert nothing_written(tmp_path / "merged")


def test_a_forged_verdict_in_an_out_folder_is_graded_again_not_kept(canvas, forged, in_process_runners):
    shard, learner = forged
    proc = grade(in_process_runners, canvas, shard)
    assert proc.returncode == 0, proc.stderr
    assert "2 submissions, 1 already graded, grading 1 with 1 runner(s)" in proc.stderr
    assert "1 kept verdict not signed with the verdict key, graded again" in proc.stderr
    assert str(record_path(shard, learner)) in proc.stderr
    for name in ("gradebook.json", "canvas-import.csv"):
        assert (shard / name).read_bytes() == (canvas / "shard" / name).read_bytes(), name
    assert record_path(shard, learner).read_bytes() == record_path(canvas / "shard", learner).read_bytes()


def test_merge_regrade_grades_a_forged_verdict_again_from_its_source(canvas, forged, tmp_path, in_process_runners):
    shard, learner = forged
    proc = merge(in_process_runners, canvas, tmp_path / "merged", shard, "--regrade")
    assert proc.returncode == 0, proc.stderr
    assert f"{record_path(shard, learner)}: not signed with the verdict key" in proc.stderr
    assert "graded again from its source" in proc.stderr
    for name in ("gradebook.json", "canvas-import.csv"):
        assert (tmp_path / "merged" / name).read_bytes() == (canvas / "shard" / name).read_bytes(), name


def key_file(path: Path, data: bytes | None = None, mode: int = 0o600) -> Path:
    path.write_bytes(os.urandom(32) if data is None else data)
    path.chmod(mode)
    return path


def test_a_shard_signed_with_another_key_is_refused_and_one_key_serves_a_job_array(
    canvas, tmp_path, in_process_runners
):
    # Two machines of an array share one key file: their shards merge. A machine with a key of its own (its default,
    # say) signs what this merge cannot prove.
    shared = key_file(tmp_path / "shared-key")
    for k in (1, 2):
        proc = grade(in_process_runners, canvas, tmp_path / f"s{k}", "--shard", f"{k}/2", "--key", shared)
        assert proc.returncode == 0, proc.stderr
    merged = merge(in_process_runners, canvas, tmp_path / "merged", tmp_path / "s1", tmp_path / "s2", "--key", shared)
    assert merged.returncode == 0, merged.stderr
    assert (tmp_path / "merged" / "canvas-import.csv").read_bytes() == (
        canvas / "shard" / "canvas-import.csv"
    ).read_bytes()
    other = merge(in_process_runners, canvas, tmp_path / "other", tmp_path / "s1", tmp_path / "s2")
    assert other.returncode == 2 and "not signed with the verdict key" in other.stderr, other.stderr
    assert "graded with another key" in other.stderr and "--regrade" in other.stderr
    assert nothing_written(tmp_path / "other")


def shard_of(shards: list[Path], user: str) -> Path:
    return next(shard for shard in shards if any(r["lms"].get("canvas") == user for r in book_of(shard)))


def book_of(shard: Path) -> list[dict]:
    return json.loads((shard / "gradebook.json").read_text())["learners"]


def test_a_signed_shard_of_another_class_is_refused_and_the_shards_of_one_still_merge(
    canvas, tmp_path, in_process_runners
):
    # The red team's attack: another class (here, the same roster's next assignment, where the learner who got this
    # one wrong got it right), graded in shards with the same key; its shard of that learner put in place of this
    # class's merged into it, and the learner's fail became a pass.
    other = tmp_path / "other-class"
    other.mkdir()
    (other / "class.zip").write_bytes(
        build(
            [
                Member(canvas_entry("S11", 11, "limit.py", attachment=200), RIGHT),
                Member(canvas_entry("S13", 13, "mine.py", attachment=202), RIGHT),
            ]
        )
    )
    shutil.copytree(canvas / "course", other / "course")
    shutil.copy(canvas / "roster.csv", other / "roster.csv")
    ours, theirs = [tmp_path / f"ours-{k}" for k in (1, 2)], [tmp_path / f"theirs-{k}" for k in (1, 2)]
    for k in (1, 2):
        for root, out in ((canvas, ours[k - 1]), (other, theirs[k - 1])):
            proc = grade(in_process_runners, root, out, "--shard", f"{k}/2")
            assert proc.returncode == 0, proc.stderr
    planted = shard_of(theirs, WRONG_USER)
    assert (
        next(r for r in book_of(planted) if r["lms"]["canvas"] == WRONG_USER)["challenges"][LIMIT]["status"] == "pass"
    )
    shards = [shard_of(ours, RIGHT_USER), planted]
    proc = merge(in_process_runners, canvas, tmp_path / "forged", *shards)
    assert proc.returncode == 2, proc.stderr  # before: 0, and the learner's 0 of 10 was 10 of 10 in Canvas's import
    assert f"{planted}: graded for another class than {shards[0]}" in proc.stderr, proc.stderr
    assert "class run" in proc.stderr and "Traceback" not in proc.stderr
    assert nothing_written(tmp_path / "forged")
    # Its verdict alone, copied into this class's shard (the cell edited to agree, merged with --regrade, which
    # takes an unsigned gradebook as it is): refused too, the verdict being of another class run.
    mine = shard_of(ours, WRONG_USER)
    learner = learner_of(mine, WRONG_USER)
    shutil.copy(record_path(planted, learner), record_path(mine, learner))
    book = json.loads((mine / "gradebook.json").read_text())
    cell = next(r for r in book["learners"] if r["learner"] == learner)["challenges"][LIMIT]
    cell.update(status="pass", passed=cell["total"])
    (mine / "gradebook.json").write_text(json.dumps(book))
    proc = merge(in_process_runners, canvas, tmp_path / "copied", shards[0], mine, "--regrade")
    assert proc.returncode == 2 and f"{record_path(mine, learner)}: the verdict of {learner!r}" in proc.stderr
    assert "another class run" in proc.stderr, proc.stderr
    # The shards of one class, graded from one download, still merge, into the files one machine writes.
    proc = merge(in_process_runners, canvas, tmp_path / "merged", *theirs)
    assert proc.returncode == 0, proc.stderr
    assert canvas_scores(tmp_path / "merged") == {RIGHT_USER: "10", WRONG_USER: "10"}


def test_shards_graded_against_other_rosters_are_refused_and_the_merge_takes_its_own(
    canvas, tmp_path, in_process_runners
):
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(canvas / "class.zip", other / "class.zip")
    shutil.copytree(canvas / "course", other / "course")
    title = find_exercise(canvas / "course", LIMIT).title
    people = [{"name": f"S{user}", "id": user, "sis": f"s{user}", "login": f"l{user}"} for user in (11, 13, 17)]
    (other / "roster.csv").write_bytes(canvas_export(people, [(title, 901, 10)]))
    for k, root in ((1, canvas), (2, other)):
        proc = grade(in_process_runners, root, tmp_path / f"s{k}", "--shard", f"{k}/2")
        assert proc.returncode == 0, proc.stderr
    proc = merge(in_process_runners, canvas, tmp_path / "merged", tmp_path / "s1", tmp_path / "s2")
    assert proc.returncode == 2, proc.stderr
    assert f"{tmp_path / 's2'}: graded for another class than {tmp_path / 's1'} (not for its --roster file)" in (
        proc.stderr
    )
    assert nothing_written(tmp_path / "merged")
    # One shard, merged with another export of the roster (a student added since): the merge's roster is the class's.
    proc = merge(in_process_runners, other, tmp_path / "again", canvas / "shard")
    assert proc.returncode == 3 and "S17 (Canvas user 17): nothing handed in" in proc.stderr, proc.stderr
    made = json.loads((tmp_path / "again" / "gradebook.json").read_text())["class"]
    assert made["roster"] == hashlib.sha256((other / "roster.csv").read_bytes()).hexdigest()


def test_a_verdict_without_a_signature_is_refused(canvas, tmp_path, in_process_runners):
    # A shard as a version of Loopcraft before signatures wrote it.
    shard = tmp_path / "unsigned"
    shutil.copytree(canvas / "shard", shard)
    learner = learner_of(shard, RIGHT_USER)
    path = record_path(shard, learner)
    record = json.loads(path.read_text())
    del record["signature"]
    path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    proc = merge(in_process_runners, canvas, tmp_path / "merged", shard)
    assert proc.returncode == 2 and f"{path}:" in proc.stderr and repr(learner) in proc.stderr, proc.stderr
    assert nothing_written(tmp_path / "merged")


def test_a_gradebook_row_edited_to_give_one_learner_another_s_scores_is_refused(canvas, tmp_path, in_process_runners):
    # Every verdict intact, but the rows' Canvas ids and names swapped: the wrong learner would get the right one's
    # 10 points in Canvas. The gradebook is signed too.
    shard = tmp_path / "swapped"
    shutil.copytree(canvas / "shard", shard)
    book = json.loads((shard / "gradebook.json").read_text())
    first, second = book["learners"]
    first["lms"], second["lms"] = second["lms"], first["lms"]
    first["name"], second["name"] = second["name"], first["name"]
    (shard / "gradebook.json").write_text(json.dumps(book, indent=1, ensure_ascii=False) + "\n")
    proc = merge(in_process_runners, canvas, tmp_path / "merged", shard)
    assert proc.returncode == 2, proc.stderr
    assert f"{shard / 'gradebook.json'}: not signed with the verdict key" in proc.stderr
    assert nothing_written(tmp_path / "merged")


KEY_REFUSALS = {
    "world-readable": (lambda tmp: key_file(tmp / "key", mode=0o644), "others can read or change the verdict key"),
    "too-short": (lambda tmp: key_file(tmp / "key", b"secret"), "holds 6 bytes: a verdict key is 32 random bytes"),
    "missing": (lambda tmp: tmp / "no-key", "no such file"),
    "a-fifo": (lambda tmp: (os.mkfifo(tmp / "fifo", 0o600), tmp / "fifo")[1], "not a regular file"),
    "in-the-out-folder": (
        lambda tmp: key_file((tmp / "out").mkdir() or tmp / "out" / "key"),
        "the verdict key is inside {out}",
    ),
}


@pytest.mark.parametrize("refusal", list(KEY_REFUSALS))
def test_a_key_file_that_could_not_keep_a_secret_is_refused(canvas, tmp_path, in_process_runners, refusal):
    make, said = KEY_REFUSALS[refusal]
    key = make(tmp_path)
    out = tmp_path / "out"
    proc = grade(in_process_runners, canvas, out, "--key", key)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"{key}:" in proc.stderr and said.format(out=out) in proc.stderr, proc.stderr
    assert not (out / "gradebook.json").exists() and not (out / "verdicts").exists()


def test_merge_refuses_a_key_inside_a_shard_folder(canvas, tmp_path, in_process_runners):
    shard = tmp_path / "shard"
    shutil.copytree(canvas / "shard", shard)
    key = key_file(shard / "verdict-key")
    proc = merge(in_process_runners, canvas, tmp_path / "merged", shard, "--key", key)
    assert proc.returncode == 2 and f"{key}: the verdict key is inside {shard}" in proc.stderr, proc.stderr
    assert nothing_written(tmp_path / "merged")


def test_the_default_key_is_made_once_private_in_the_xdg_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "config" / "loopcraft" / "verdict-key"
    assert signing.default_key_path() == path
    key, made = signing.verdict_key(None, folders=[tmp_path / "out"])
    assert made == path and len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_bytes() == key
    assert signing.verdict_key(None, folders=[]) == (key, None)  # kept, not made again
    assert [p.name for p in path.parent.iterdir()] == ["verdict-key"]  # no temporary file left
    # The XDG Base Directory Specification: unset, empty or relative, $HOME/.config.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for value in ("", "relative/config"):
        monkeypatch.setenv("XDG_CONFIG_HOME", value)
        assert signing.default_key_path() == tmp_path / "home" / ".config" / "loopcraft" / "verdict-key"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert signing.default_key_path() == tmp_path / "home" / ".config" / "loopcraft" / "verdict-key"


def test_a_folder_holding_the_default_key_is_refused_as_an_out_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with pytest.raises(LoopcraftError, match="the verdict key is inside"):
        signing.verdict_key(None, folders=[tmp_path / "config"])
    assert not (tmp_path / "config").exists()


@pytest.fixture(scope="module")
def signed_record(canvas) -> tuple[bytes, str, Signer]:
    """A signed verdict as `class` wrote it, its learner, and what signed it: the session's key, the course's
    challenge."""
    learner = learner_of(canvas / "shard", WRONG_USER)
    key, _ = signing.verdict_key(None, folders=[])
    fingerprints = {LIMIT: fingerprint(find_exercise(canvas / "course", LIMIT), Project(canvas / "course"))}
    return record_path(canvas / "shard", learner).read_bytes(), learner, Signer(key, fingerprints)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.floats(0, 1, exclude_max=True), change=st.integers(1, 255))
def test_any_one_byte_changed_in_a_signed_verdict_is_refused(signed_record, tmp_path, where, change):
    data, learner, signer = signed_record
    store = VerdictStore(tmp_path)
    path = store.path(learner, LIMIT)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    assert store.read_signed(learner, LIMIT, signer)[1]  # as written, it verifies
    at = int(where * len(data))
    changed = bytearray(data)
    changed[at] = (changed[at] + change) % 256
    path.write_bytes(bytes(changed))
    try:
        _, trusted = store.read_signed(learner, LIMIT, signer)
    except LoopcraftError:
        return  # not a verdict any more: refused as such
    assert not trusted, (at, data[max(at - 20, 0) : at + 20])
