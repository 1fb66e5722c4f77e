"""The one command tree (loopcraft/commands/): its two groups, a module per command with its parser and its plain
function, the default command of `python build.py` and `python -m grader`, and each group's exit status on bad
input. Parsing only: no command here grades or builds anything."""

from __future__ import annotations

import argparse
import inspect
import re

import pytest

from loopcraft import commands
from loopcraft.commands import options
from tests.helpers import ROOT

AUTHORS = ["build", "check", "serve", "new", "record", "strengthen"]
TEACHERS = ["grade", "class", "merge", "gradescope"]


def help_of(capsys, *argv: str, prog: str = "loopcraft", default: str | None = None) -> str:
    with pytest.raises(SystemExit) as done:
        commands.main(list(argv), prog, default=default)
    assert done.value.code == 0, argv
    return capsys.readouterr().out


def test_the_help_lists_the_authors_and_the_teachers_commands_each_in_its_group(capsys):
    text = help_of(capsys, "--help")
    assert text.startswith("usage: loopcraft [-h] COMMAND ...\n")
    groups = {
        title: re.findall(r"^  ([a-z]+) ", body, re.MULTILINE)
        for title, body in re.findall(r"^(the \w+' commands):\n((?:  .*\n?)+)", text, re.MULTILINE)
    }
    assert groups == {"the authors' commands": AUTHORS, "the teachers' commands": TEACHERS}
    # With nothing to do, the tree says what there is, on stderr, and exits as argparse does on bad usage.
    assert commands.main([]) == 2
    assert "the teachers' commands:\n  grade " in capsys.readouterr().err


def dests(define) -> set[str]:
    """The names under which `define(parser)` puts its options (argparse lists a parser's actions only privately)."""
    parser = argparse.ArgumentParser(add_help=False)
    define(parser)
    return {action.dest for action in parser._actions}


def test_each_command_is_a_module_with_its_parser_and_a_plain_function_of_keywords(capsys):
    modules = sorted(path.stem for path in (ROOT / "loopcraft" / "commands").glob("*.py"))
    assert modules == sorted(["__init__", "options", "class_", *(set(AUTHORS + TEACHERS) - {"class"})])
    for group in commands.GROUPS:
        for command in group.commands:
            name = commands.name(command)
            # The subcommand is the module's (its usage, its HELP), and what it parses is what its function takes:
            # the tree hands the options to `run` as they are, with the project and any runners lent.
            assert help_of(capsys, name, "--help").startswith(f"usage: loopcraft {name} "), name
            assert " ".join(command.HELP.split()) in " ".join(help_of(capsys, name, "--help").split()), name
            parameters = inspect.signature(command.run).parameters.values()
            assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in parameters), name
            keywords = {p.name for p in parameters if p.kind is p.KEYWORD_ONLY}
            taken = dests(command.add)
            if any(p.kind is p.VAR_KEYWORD for p in parameters):  # class and merge: the LMS's options, passed on
                assert taken - keywords == dests(options.lms), name
            else:
                assert taken <= keywords, name
            assert keywords - taken <= {"project", "runners"} and "project" in keywords, name


def test_build_py_and_python_m_grader_run_their_default_command_when_none_is_named(capsys):
    graded = commands.parse(["consecutive-error-limit", "alice.py", "--json"], "python -m grader", default="grade")
    assert (graded.run, graded.exercise, graded.as_json) == (commands.grade.run, "consecutive-error-limit", True)
    classed = commands.parse(["class", "subs.zip", "--out", "grades"], "python -m grader", default="grade")
    assert classed.run is commands.class_.run
    said = " ".join(help_of(capsys, "--help", prog="python -m grader", default="grade").split())
    assert "`python -m grader ARGS` that names no command is `python -m grader grade ARGS`" in said


def test_bad_input_exits_1_for_the_authors_commands_and_2_for_the_teachers(tmp_path, capsys, monkeypatch):
    assert commands.main(["serve", "--no-build", "--out", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().err == f"error: no site at {tmp_path / 'none'}; build it first\n"
    for name in ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "CI_NODE_INDEX"):
        monkeypatch.delenv(name, raising=False)
    assert commands.main(["class", str(tmp_path), "--out", str(tmp_path / "grades"), "--shards", "3"]) == 2
    assert capsys.readouterr().err.startswith("error: --shards N needs the index of a job array's task")
    assert not (tmp_path / "grades").exists()


def test_no_verify_is_said_first_and_only_by_the_commands_that_would_have_run_solutions(tmp_path, capsys):
    assert commands.main(["check", "--root", str(tmp_path), "--no-verify"]) == 1
    said = f"error: no exercises folder at {tmp_path / 'exercises'}\n"
    assert capsys.readouterr().err == options.NO_VERIFY_WARNING + "\n" + said
    assert commands.main(["serve", "--no-build", "--no-verify", "--out", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().err == f"error: no site at {tmp_path / 'none'}; build it first\n"  # runs nothing
