"""Runners lent by a pool (loopcraft.running.grading.Runners, runner_for): which projects share one, and what a command gets.
In-process runners only: what is lent, not what runs in it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from loopcraft.course.project import INSTALL, Project
from loopcraft.running.grading import Runners, runner_for


def grader_copy(root: Path, edit: str = "") -> Project:
    shutil.copytree(INSTALL / "grader", root / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    if edit:
        with (root / "grader/__init__.py").open("a", encoding="utf-8") as init:
            init.write(edit)
    return Project(root)


def test_copies_of_one_grader_borrow_the_same_runner_and_another_grader_its_own(tmp_path: Path):
    same, edited = grader_copy(tmp_path / "same"), grader_copy(tmp_path / "edited", "# edited\n")
    with Runners("in-process") as pool:
        with runner_for(Project(), "in-process", pool) as first:
            pass
        with runner_for(same, "in-process", pool) as second:
            assert second is first  # a runner reads its grader once, as it starts: the bytes are what matter
            with runner_for(edited, "in-process", pool) as third:
                assert third is not first


def test_a_command_given_runners_of_another_kind_is_refused(tmp_path: Path):
    with Runners("in-process") as pool, pytest.raises(ValueError, match="trusted runners were asked for"):
        with runner_for(Project(), "trusted", pool):
            pass
