"""`loopcraft`: the project's one command, for authors and teachers alike (a console script; `python build.py` and
`python -m grader` are the same commands under their older names).

    loopcraft build|check|serve|new|record|strengthen ...   the site and its challenges (loopcraft/author.py)
    loopcraft gradescope SLUG... --out autograder.zip        a Gradescope autograder (loopcraft/classroom/gradescope.py)
    loopcraft grade SLUG SOLUTION.py|FOLDER [--json]         grade one challenge's solutions (loopcraft/cli.py)
    loopcraft class SUBMISSIONS --out DIR [--lms ...]        grade a class, its LMS's files (loopcraft/cli.py)
    loopcraft merge DIR... --out DIR                         join the shards of a class
"""

from __future__ import annotations

import sys

AUTHOR = ("build", "check", "serve", "new", "record", "strengthen", "gradescope")
TEACHER = ("grade", "class", "merge")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv else None
    if command in AUTHOR:
        from .author import main as author

        return author(argv, prog="loopcraft")
    if command in TEACHER:
        from .cli import main as teacher

        return teacher(argv[1:], prog="loopcraft grade") if command == "grade" else teacher(argv, prog="loopcraft")
    print(__doc__.split("\n\n", 1)[1].rstrip(), file=sys.stderr if command not in ("-h", "--help") else sys.stdout)
    return 0 if command in ("-h", "--help") else 2


if __name__ == "__main__":
    sys.exit(main())
