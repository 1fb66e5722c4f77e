"""Every hostile or broken solution ends in a clear verdict on the command line: never a crash,
never a forged pass. The grader's command grades the whole corpus, as an instructor's folders, in one runner (lent
for the session, tests.helpers.run_grader): first the files that loop, then the others, so that every file is graded
after what the loops leave of the runner. The files that look for what other submissions left, or attack later ones,
are also graded alone, each in a runner of its own, and get the same verdict either way.

A file that must time out (`Hostile.loops`) is graded against a copy of the challenge whose time limit is 0.25 s:
each of its loops runs to the limit, and what is under test is that it ends in a verdict, not the limit's value.
Every other file is graded against a copy whose limit is 10 s, far above what any of its cases takes (the files that
walk everything gc reaches take about 0.4 s of CPU in their one case), so that a busy machine cannot make a case that
must finish time out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import hostile_corpus
from tests.helpers import grader_process, run_grader

CORPUS = hostile_corpus.load()
ALONE = [item.name for item in CORPUS if item.alone]
LOOP_S = 0.25
FINISH_S = 10


def limit_of(item: hostile_corpus.Hostile) -> float:
    return LOOP_S if item.loops else FINISH_S


@pytest.fixture(scope="module")
def challenges(tmp_path_factory) -> dict[float, Path]:
    """The challenge's copies, by time limit."""
    return {
        limit: hostile_corpus.challenge_copy(tmp_path_factory.mktemp("course"), limit) for limit in (LOOP_S, FINISH_S)
    }


def grade(runners, challenge: Path, path: Path) -> dict:
    proc = run_grader(runners, challenge, path, "--json")
    assert proc.returncode in (0, 1), proc.stderr  # 0 when every case passes (an attack that came to nothing)
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def corpus_folders(tmp_path_factory) -> dict[float, Path]:
    """The corpus as two folders of solution files, by the time limit they are graded at."""
    folders = {}
    for limit in (LOOP_S, FINISH_S):
        folders[limit] = tmp_path_factory.mktemp(f"hostile-{limit:g}")
        hostile_corpus.write(folders[limit], [item for item in CORPUS if limit_of(item) == limit])
    return folders


@pytest.fixture(scope="module")
def graded(runners, challenges, corpus_folders):
    docs = {}
    for limit in (LOOP_S, FINISH_S):  # the loops first: every other file is graded after them
        document = grade(runners, challenges[limit], corpus_folders[limit])
        assert document["version"] == 3
        assert len(document["submissions"]) == len(list(corpus_folders[limit].iterdir()))
        docs |= {d["file"].rsplit("/", 1)[-1][:-3]: d for d in document["submissions"]}
    assert sorted(docs) == sorted(item.name for item in CORPUS)
    return {item.name: (item, docs[item.name]) for item in CORPUS}


@pytest.fixture(scope="module")
def graded_alone(challenges, corpus_folders):
    """Each file alone: in a runner of its own (none lent), as the first submission it grades."""
    alone = {}
    for name in ALONE:
        limit = limit_of(hostile_corpus.named(name))
        alone[name] = grade(None, challenges[limit], corpus_folders[limit] / f"{name}.py")
    return alone


@pytest.mark.parametrize("name", [item.name for item in CORPUS])
def test_hostile_solution_gets_the_expected_verdict(graded, name):
    item, doc = graded[name]
    hostile_corpus.check(item, doc["tests"], limit_of(item))


@pytest.mark.second_proof  # the folder run checks each file after these against its own expectations
@pytest.mark.parametrize("name", ALONE)
def test_a_submission_gets_the_same_verdict_alone_as_in_a_folder(graded, graded_alone, name):
    item, in_folder = graded[name]
    alone = graded_alone[name]
    hostile_corpus.check(item, alone["tests"], limit_of(item))
    assert {k: v for k, v in alone.items() if k != "file"} == {k: v for k, v in in_folder.items() if k != "file"}


def test_the_text_report_prints_lone_surrogates(challenges, corpus_folders):
    # A process of its own: what is under test is that the real stdout, whatever its encoding, takes the text.
    proc = grader_process(challenges[FINISH_S], corpus_folders[FINISH_S] / "lone_surrogates.py")
    assert proc.returncode == 1, proc.stderr
    assert "ValueError: bad \\udc00 half" in proc.stdout
