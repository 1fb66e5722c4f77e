"""Every hostile or broken solution ends in a clear verdict on the command line: never a crash,
never a forged pass. One grader process grades the whole corpus, as an instructor's folder; the files that
look for what other submissions left, or attack later ones, are also graded alone, and get the same verdict
either way.

The corpus is graded against a copy of its challenge whose time limit is 2 s, not 3: every loop in it runs to the
limit, and what is under test is that it ends in a verdict. Not 1 s: the files that walk everything gc reaches
(js_found_through_gc, reads_earlier_submissions) take about 0.4 s of CPU in their one case, and on a machine busy
with other work a case at 1 s timed out."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import hostile_corpus
from tests.helpers import ROOT

ALONE = [item.name for item in hostile_corpus.load() if item.alone]
LIMIT_S = 2


@pytest.fixture(scope="module")
def challenge(tmp_path_factory) -> Path:
    return hostile_corpus.challenge_copy(tmp_path_factory.mktemp("course"), LIMIT_S)


def grade(challenge: Path, path: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "grader", str(challenge), str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode in (0, 1), proc.stderr  # 0 when every case passes (an attack that came to nothing)
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def corpus_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    return folder, {item.name: item for item in hostile_corpus.write(folder)}


@pytest.fixture(scope="module")
def graded(challenge, corpus_folder):
    folder, corpus = corpus_folder
    document = grade(challenge, folder)
    assert document["version"] == 3 and len(document["submissions"]) == len(corpus)
    docs = {d["file"].rsplit("/", 1)[-1][:-3]: d for d in document["submissions"]}
    return {name: (item, docs[name]) for name, item in corpus.items()}


@pytest.fixture(scope="module")
def graded_alone(challenge, corpus_folder):
    folder, _ = corpus_folder
    with ThreadPoolExecutor(max_workers=2) as pool:  # a Node runner each; the machine has two cores
        return dict(zip(ALONE, pool.map(lambda name: grade(challenge, folder / f"{name}.py"), ALONE), strict=True))


@pytest.mark.parametrize("name", [item.name for item in hostile_corpus.load()])
def test_hostile_solution_gets_the_expected_verdict(graded, name):
    item, doc = graded[name]
    hostile_corpus.check(item, doc["tests"], LIMIT_S)


@pytest.mark.parametrize("name", ALONE)
def test_a_submission_gets_the_same_verdict_alone_as_in_a_folder(graded, graded_alone, name):
    _, in_folder = graded[name]
    alone = graded_alone[name]
    hostile_corpus.check(graded[name][0], alone["tests"], LIMIT_S)
    assert {k: v for k, v in alone.items() if k != "file"} == {k: v for k, v in in_folder.items() if k != "file"}


def test_the_text_report_prints_lone_surrogates(challenge, corpus_folder):
    folder, _ = corpus_folder
    proc = subprocess.run(
        [sys.executable, "-m", "grader", str(challenge), str(folder / "lone_surrogates.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 1, proc.stderr
    assert "ValueError: bad \\udc00 half" in proc.stdout
