"""Every hostile or broken solution ends in a clear verdict on the command line: never a crash,
never a forged pass. One grader process grades the whole corpus, as an instructor's folder."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests import hostile_corpus
from tests.helpers import ROOT


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    corpus = hostile_corpus.write(folder)
    proc = subprocess.run([sys.executable, "-m", "grader", hostile_corpus.SLUG, str(folder), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 1, proc.stderr
    docs = {d["file"].rsplit("/", 1)[-1][:-3]: d for d in json.loads(proc.stdout)["submissions"]}
    return {item.name: (item, docs[item.name]) for item in corpus}


@pytest.mark.parametrize("name", [item.name for item in hostile_corpus.load()])
def test_hostile_solution_gets_the_expected_verdict(graded, name):
    item, doc = graded[name]
    hostile_corpus.check(item, doc["tests"])
