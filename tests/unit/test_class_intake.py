"""Class intake, proved by generation: class folders of random names (any bytes, any Unicode, formula starts),
regular files, links, FIFOs, folders where files should be, empty and oversized files, and broken, deep and
oversized progress files. Whatever the folder holds, intake gives one row per learner with a unique, printable
id, reads only regular files within their caps, and turns everything else into that learner's error; the class
command ends with a gradebook row per learner and no traceback."""

from __future__ import annotations

import json
import os
import shutil
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopcraft.classroom.files import Refused
from loopcraft.classroom.intake import PROGRESS_BYTES, SOURCE_BYTES, progress_codes, read_folder
from loopcraft.classroom.names import name, name_from_bytes
from loopcraft.classroom.printable import one_line
from loopcraft.course.load import find_exercise
from tests.helpers import ROOT, run_grader

SLUG = "consecutive-error-limit"
REFERENCE = ROOT / "exercises" / "build-an-agent" / SLUG / "solution.py"
EXERCISES = [find_exercise(ROOT, SLUG)]

# A file or folder name: any bytes but "/" and NUL, not "." or "..", short enough for any file system.
names = st.binary(min_size=1, max_size=40).filter(lambda b: b"/" not in b and b"\0" not in b and b not in (b".", b".."))
formula_names = st.sampled_from([b"=1+1", b"+cmd", b"-2", b"@SUM(A1)", b"\tx", b"\x1b[31mred"])
unicode_names = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\0"), min_size=1, max_size=12
).map(lambda t: t.encode("utf-8"))
learner_names = st.one_of(
    names, formula_names, unicode_names, unicode_names.map(lambda b: unicodedata.normalize("NFD", b.decode()).encode())
)

# What a learner's SLUG.py can be.
solution_files = st.one_of(
    st.tuples(st.just("text"), st.binary(max_size=200)),
    st.tuples(st.just("reference"), st.none()),
    st.tuples(st.just("empty"), st.none()),
    st.tuples(st.just("oversized"), st.none()),
    st.tuples(st.just("link"), st.sampled_from(["/etc/passwd", "/proc/self/mem", str(REFERENCE), "/nonexistent"])),
    st.tuples(st.just("fifo"), st.none()),
    st.tuples(st.just("folder"), st.none()),
)
progress_files = st.one_of(
    st.tuples(st.just("valid"), st.binary(max_size=100)),
    st.tuples(st.just("deep"), st.integers(1_000, 50_000)),
    st.tuples(
        st.just("typed"),
        st.sampled_from(
            ['{"format": 1}', "[]", '{"format": "loopcraft-progress", "version": 1, "entries": []}', "null"]
        ),
    ),
    st.tuples(st.just("bytes"), st.binary(max_size=100)),
    st.tuples(st.just("oversized"), st.none()),
    st.tuples(st.just("link"), st.sampled_from(["/etc/passwd", str(REFERENCE)])),
)
hand_ins = st.one_of(
    st.tuples(st.just("folder"), st.lists(st.tuples(st.sampled_from([SLUG, "other"]), solution_files), max_size=3)),
    st.tuples(st.just("progress"), progress_files),
    st.tuples(st.just("folder-link"), st.none()),
)
classes = st.dictionaries(learner_names, hand_ins, min_size=1, max_size=6)


def write_class(folder: Path, klass: dict[bytes, tuple]) -> dict[bytes, tuple]:
    """Write the generated class into `folder` (bytes paths: names need not be UTF-8); return what was written of
    each entry intake must make a learner of (folders, progress files, links at the top; not hidden ones), by name."""
    top = os.fsencode(folder)
    learners = {}
    for raw, (kind, detail) in klass.items():
        if kind == "progress":
            raw += b".json"
        path = os.path.join(top, raw)
        if os.path.lexists(path):
            continue  # "x" and "x.json" in one example: the first one written stands
        written = {}
        if kind == "folder":
            os.mkdir(path)
            for slug, (what, data) in detail:
                written.setdefault(slug, (what, data))
                write_solution(os.path.join(path, f"{slug}.py".encode()), what, data)
        elif kind == "folder-link":
            os.symlink(os.fsencode(ROOT), path)
        else:
            write_progress(path, *detail)
        if not raw.startswith(b"."):
            learners[raw] = (kind, written)
    return learners


def write_solution(path: bytes, what: str, data) -> None:
    if os.path.lexists(path):
        return
    if what == "text":
        Path(os.fsdecode(path)).write_bytes(data)
    elif what == "reference":
        shutil.copy(REFERENCE, os.fsdecode(path))
    elif what == "empty":
        Path(os.fsdecode(path)).write_bytes(b"")
    elif what == "oversized":
        with open(path, "wb") as file:
            file.truncate(SOURCE_BYTES + 1)
    elif what == "link":
        os.symlink(data, path)
    elif what == "fifo":
        os.mkfifo(path)
    else:
        os.mkdir(path)


def write_progress(path: bytes, what: str, data) -> None:
    if what == "valid":
        entries = {f"loopcraft:code:build-an-agent/{SLUG}": data.decode("utf-8", "replace"), "loopcraft:theme": "dark"}
        text = json.dumps({"format": "loopcraft-progress", "version": 1, "entries": entries})
    elif what == "deep":
        text = "[" * data + "]" * data
    elif what == "typed":
        text = data
    elif what == "bytes":
        Path(os.fsdecode(path)).write_bytes(data)
        return
    elif what == "oversized":
        with open(path, "wb") as file:
            file.truncate(PROGRESS_BYTES + 1)
        return
    else:
        os.symlink(data, path)
        return
    Path(os.fsdecode(path)).write_text(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(klass=classes)
def test_intake_gives_a_row_per_learner_and_reads_only_regular_files_within_their_caps(tmp_path_factory, klass):
    folder = tmp_path_factory.mktemp("class")
    expected = write_class(folder, klass)
    if not expected:
        return
    learners = read_folder(folder, EXERCISES)
    assert len(learners) == len(expected)
    ids = [learner.id for learner in learners]
    assert len(set(ids)) == len(ids) and ids == sorted(ids)
    by_origin = {learner.origin: learner for learner in learners}
    for learner in learners:
        for text in (learner.id, learner.name, learner.origin, learner.error or ""):
            assert one_line(text) == text, text  # printable: nothing left to escape
        assert name(learner.name) == learner.name  # nothing in it shows nothing
        assert unicodedata.is_normalized("NFC", learner.id)
        assert (learner.error is None) or not learner.sources
        for source in learner.sources.values():
            assert (source.text is None) != (source.error is None)
            if source.text is not None:
                assert len(source.text.encode("utf-8", "surrogatepass")) <= SOURCE_BYTES
                assert "root:x:0:0" not in source.text
    for raw, (kind, written) in expected.items():
        if kind != "folder":
            continue
        learner = by_origin[f"{name_from_bytes(raw, normalise=False)}/"]
        if learner.error is not None:
            continue  # its name collided with another's
        what, data = written.get(SLUG, (None, None))
        source = learner.sources.get(SLUG)
        assert (source is None) == (what is None)
        if what == "reference":
            assert source.text == REFERENCE.read_text()
        elif what == "empty":
            assert source.text == ""
        elif what == "text":
            try:
                assert source.text == data.decode("utf-8-sig")
            except UnicodeDecodeError:
                assert "not UTF-8 text" in source.error
        elif what is not None:  # a link, a FIFO, a folder, an oversized file: never read
            assert source.error is not None and source.text is None


def test_the_grader_accepts_exactly_the_progress_files_the_site_accepts():
    """tests/golden/progress_files.json, which tests/js/transfer.test.mjs holds the site's importer to as well."""
    files = json.loads((ROOT / "tests" / "golden" / "progress_files.json").read_text(encoding="utf-8"))["files"]
    for file in files:
        text = file.get("text")
        if "nested" in file:
            text = "[" * file["nested"] + "]" * file["nested"]
        if "code_chars" in file:
            entries = {"loopcraft:code:t/s": "x" * file["code_chars"]}
            text = json.dumps({"format": "loopcraft-progress", "version": 1, "entries": entries})
        data = text.encode("utf-8", "surrogatepass")
        try:
            accepted = len(data) <= PROGRESS_BYTES and progress_codes(data, "f.json") is not None
        except Refused:
            accepted = False
        assert accepted == file["accepted"], file["name"]


BLANK = "\u034f\u115f\u1160\u2800\u3164\uffa0\ufe0f\U000e0100\u00a0\u2060\u00ad\U000e0041\u200b\ue000"


@given(st.text(st.sampled_from(BLANK + " ab\u00e9\u65e5\U0001f600\t\n")) | st.text())
def test_a_name_shows_everything_that_sets_it_apart(text):
    # Two names that read the same would be two rows no one can tell apart (in a gradebook, a report, a terminal,
    # in HTML that shows a run of spaces as one): a name shows no character that renders as nothing or as a space
    # (escaped: "ada\\u2060"), nor a space at its ends or after another.
    shown = name(text)
    assert not [c for c in shown if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")]
    assert not [c for c in shown if unicodedata.category(c) == "Zs" and c != " "]
    assert not [c for c in shown if c in BLANK and c != " "]
    assert not shown.startswith(" ") and not shown.endswith(" ") and "  " not in shown
    assert name(shown) == shown
    assert shown == text or "\\" in shown


def test_a_folder_of_loose_python_files_is_a_learner_per_file_with_challenge_and_says_what_to_do_without(
    tmp_path, in_process_runners
):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "ada.py").write_text(REFERENCE.read_text())
    (klass / "bob.py").write_bytes(b"\xff not text")
    (klass / "notes.txt").write_text("the teacher's")
    got = {learner.id: learner for learner in read_folder(klass, EXERCISES, SLUG)}
    assert set(got) == {"ada", "bob"}  # the teacher's notes are no learner
    assert got["ada"].sources[SLUG].text == REFERENCE.read_text() and got["ada"].origin == "ada.py"
    assert "not UTF-8 text" in got["bob"].sources[SLUG].error
    # Without --challenge nothing says whose challenge a loose file is: the run stops before anything is graded.
    proc = run_grader(in_process_runners, "class", klass, "--out", tmp_path / "out")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "holds 2 .py file(s) at its top (ada.py, bob.py), taken as one learner each only with --challenge SLUG" in (
        proc.stderr
    )
    assert not (tmp_path / "out").exists()
