"""`loopcraft`, the project's one command: one argparse tree, a module per command (laid out as mkdocs's and
otter-grader's command lines are), listed in two groups, the authors' and the teachers'.

Each command's module has `HELP`, `add(parser)`, which defines its arguments under the names of `run`'s keywords,
and `run(*, project, ...)`, the plain function that does the work and returns the exit status. The options several
commands share are options.py's; `--root`, which every command takes, is added here. `python build.py` and
`python -m grader` are this tree under their older names, with `build` and `grade` as the command they run when
none is named.

A command's LoopcraftError ends it with its group's status: 1 for the authors' (a problem to fix), 2 for the
teachers' (bad input: 1 means a failing case there). An ExerciseError prints every problem, a `path:line: message`
a line, then how many; any other, `error: MESSAGE`.
"""

from __future__ import annotations

import argparse
import inspect
import io
import shutil
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from loopcraft.commands import build, check, class_, grade, gradescope, merge, new, record, serve, strengthen
from loopcraft.course.errors import ExerciseError, LoopcraftError
from loopcraft.course.project import INSTALL, Project
from loopcraft.running.grading import Runners


@dataclass(frozen=True)
class Group:
    title: str
    commands: tuple[ModuleType, ...]
    bad_input: int  # the exit status of a command that stops on a LoopcraftError


GROUPS = (
    Group("the authors' commands", (build, check, serve, new, record, strengthen), 1),
    Group("the teachers' commands", (grade, class_, merge, gradescope), 2),
)


def name(command: ModuleType) -> str:
    """A command is named after its module (`class_`, as `class` is Python's keyword)."""
    return command.__name__.rpartition(".")[2].rstrip("_")


NAMES = tuple(name(command) for group in GROUPS for command in group.commands)


def parser(prog: str = "loopcraft", default: str | None = None) -> argparse.ArgumentParser:
    """The whole tree; `default`: the command that runs when none is named (said in the help)."""
    width = max(shutil.get_terminal_size().columns - 2, 40)  # as argparse's own help
    about = "Build, check and serve a Loopcraft course; grade its challenges and a class; make a Gradescope autograder."
    if default is not None:
        about += f" `{prog} ARGS` that names no command is `{prog} {default} ARGS`."
    tree = argparse.ArgumentParser(
        prog=prog,
        description=textwrap.fill(about, width),
        epilog=_listing(width),
        formatter_class=argparse.RawDescriptionHelpFormatter,  # the listing is laid out in groups already
    )
    commands = tree.add_subparsers(
        metavar="COMMAND", required=True, help=f"one of the commands below; `{prog} COMMAND --help` for its own"
    )
    for group in GROUPS:
        for command in group.commands:
            sub = commands.add_parser(name(command), description=command.HELP)
            sub.add_argument(
                "--root",
                type=Path,
                default=INSTALL,
                help="the course's project folder, holding exercises/ (default: this installation's)",
            )
            command.add(sub)
            sub.set_defaults(run=command.run, group=group)
    return tree


def _listing(width: int) -> str:
    """Each group's commands and what each does, wrapped as argparse wraps its own help."""
    column = max(map(len, NAMES)) + 4
    return "\n\n".join(
        f"{group.title}:\n"
        + "\n".join(
            textwrap.fill(
                command.HELP,
                width,
                initial_indent=f"  {name(command):<{column - 2}}",
                subsequent_indent=" " * column,
            )
            for command in group.commands
        )
        for group in GROUPS
    )


def parse(argv: list[str], prog: str = "loopcraft", *, default: str | None = None) -> argparse.Namespace:
    """`argv` as the tree reads it, `default` first when it names no command (`python build.py --out x` builds)."""
    if default is not None and (not argv or argv[0] not in (*NAMES, "-h", "--help")):
        argv = [default, *argv]
    return parser(prog, default).parse_args(argv)


def main(
    argv: list[str] | None = None,
    prog: str = "loopcraft",
    *,
    default: str | None = None,
    runners: Runners | None = None,
) -> int:
    """Run one command line (`default`: as `parse`'s). `runners`: runners lent to the commands that grade
    (loopcraft.running.grading.Runners, of the kind the command takes: trusted for the authors', fresh for the teachers'),
    for a caller that runs many commands in one process."""
    # Learner text may hold anything, lone surrogates included: a report prints it escaped rather than crash.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv and default is None:
        parser(prog).print_help(sys.stderr)
        return 2
    keywords = vars(parse(argv, prog, default=default))
    run, group = keywords.pop("run"), keywords.pop("group")
    keywords["project"] = Project(keywords.pop("root"))
    if runners is not None and "runners" in inspect.signature(run).parameters:  # the others start no runner
        keywords["runners"] = runners
    try:
        return run(**keywords)
    except ExerciseError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.errors)} problem(s); nothing was written", file=sys.stderr)
        return group.bad_input
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return group.bad_input
