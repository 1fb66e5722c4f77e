"""`loopcraft merge DIR... --out DIR`: the gradebooks of a class's shards (`class --shard K/N` runs) joined into one
(loopcraft/classroom/). Exit status as `class`'s; 2 also for a verdict or gradebook that the verdict key did not sign
as it is (unless --regrade)."""

from __future__ import annotations

import argparse
from pathlib import Path

from loopcraft.classroom.merge import merge_shards
from loopcraft.commands import options

HELP = "join the gradebooks of shards into one"


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shards", type=Path, nargs="+", help="the --out folders of `class --shard` runs")
    parser.add_argument("--out", type=Path, required=True)
    options.key(parser, "signed the shards' verdicts (the one their `class` runs were given)")
    parser.add_argument(
        "--regrade",
        action="store_true",
        help="grade again, from the source it holds, every verdict the key did not sign (edited, or graded with "
        "another key) instead of refusing the merge; the shards are then trusted for what was handed in, and by "
        "whom, but not for any verdict",
    )
    options.lms(parser)


# The command is the classroom's merge as it is: its keywords are the options `add` defines.
run = merge_shards
