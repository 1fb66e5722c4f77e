"""`loopcraft class SUBMISSIONS --out DIR`: a whole class graded (loopcraft/classroom/): a folder per learner with
one SLUG.py per challenge (or a progress export), a zip of that, or Canvas's or Moodle's download.

Every verdict and gradebook is signed with the teacher's verdict key (loopcraft/classroom/signing.py), and a run
again with the same --out keeps only what that key signed. Exit status 0 when everything is written and every
learner graded and, with --lms, matched; 2 on bad input (nothing written); 3 when everything is written but a
learner or a file of the download was not graded, or a learner is not in the LMS's import (the run's last lines
list each, with why).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from loopcraft.classroom import grade_class
from loopcraft.commands import options
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.project import Project
from loopcraft.running.grading import Runners

HELP = (
    "grade a whole class: SUBMISSIONS holds a folder per learner, with one SLUG.py per challenge (or a progress "
    "export); its LMS's files"
)


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of runners, 1 or more")
    return int(text)


def _shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N (e.g. 1/4)") from None
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be between 1 and N")
    return k, n


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number, 1 or more")
    return int(text)


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "submissions",
        type=Path,
        help="a folder with a folder per learner, or a zip: of such a folder, or Canvas's or Moodle's download",
    )
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        help="where gradebook.csv, gradebook.json and each verdict go; grading again with the same --out resumes",
    )
    parser.add_argument("--jobs", type=_jobs, default=None, help="runners in parallel (default: the cores)")
    parser.add_argument(
        "--shard",
        type=_shard,
        default=None,
        metavar="K/N",
        help="grade only the K-th of N equal shares of the learners (default: from a Slurm job array's, a "
        "Kubernetes Indexed Job's or GitLab's parallel job's variables, else all)",
    )
    parser.add_argument(
        "--shards",
        type=_count,
        default=None,
        metavar="N",
        help="in a job array whose system does not say how many tasks it has (a Kubernetes Indexed Job): N",
    )
    parser.add_argument(
        "--challenge",
        metavar="SLUG",
        help="an assignment of one challenge: each learner's one Python file is its solution, whatever its name",
    )
    options.key(parser, "signs each verdict (a verdict in --out that it did not sign is graded again)")
    options.lms(parser)


def run(
    *,
    project: Project,
    submissions: Path,
    out: Path,
    jobs: int | None = None,
    shard: tuple[int, int] | None = None,
    shards: int | None = None,
    challenge: str | None = None,
    key_file: Path | None = None,
    runners: Runners | None = None,
    **lms,
) -> int:
    """`lms`: options.lms's, as grade_class takes them; `shard`/`shards` as shard_of reads them."""
    share, whence = shard_of(shard, shards, dict(os.environ))
    if whence:
        print(f"shard {share[0]}/{share[1]}, from {whence}", file=sys.stderr)
    return grade_class(
        project=project, submissions=submissions, out=out, jobs=jobs, shard=share, challenge=challenge,
        runners=runners, key_file=key_file, **lms,
    )  # fmt: skip


def shard_of(shard: tuple[int, int] | None, shards: int | None, env: dict[str, str]) -> tuple[tuple[int, int], str]:
    """Which share of the learners this run grades, and whence that came: `--shard K/N`, else the index of a job
    array's task (Slurm's SLURM_ARRAY_TASK_ID and _MIN, _STEP, _COUNT; a Kubernetes Indexed Job's
    JOB_COMPLETION_INDEX, with `--shards N`; GitLab CI's parallel jobs' CI_NODE_INDEX and CI_NODE_TOTAL), else all."""
    if shard is not None:
        if shards is not None and shards != shard[1]:
            raise LoopcraftError(f"--shard {shard[0]}/{shard[1]} and --shards {shards} disagree")
        return shard, ""

    def number(name: str) -> int:
        value = env.get(name, "").strip()
        if not value.isdigit():
            raise LoopcraftError(f"{name}={env.get(name)!r} is not a whole number (is this a job array's task?)")
        return int(value)

    if "SLURM_ARRAY_TASK_ID" in env:
        task, first = number("SLURM_ARRAY_TASK_ID"), number("SLURM_ARRAY_TASK_MIN")
        step = number("SLURM_ARRAY_TASK_STEP") if "SLURM_ARRAY_TASK_STEP" in env else 1
        count = number("SLURM_ARRAY_TASK_COUNT")
        k, n, whence = (task - first) // max(step, 1) + 1, count, f"SLURM_ARRAY_TASK_ID={task}"
        if (task - first) % max(step, 1) or not 1 <= k <= n:
            raise LoopcraftError(
                f"Slurm's array task {task} (from {first}, step {step}, {count} tasks) is not one of a range: "
                "submit the array as --array=0-(N-1), or give --shard K/N"
            )
    elif "JOB_COMPLETION_INDEX" in env:
        if shards is None:
            raise LoopcraftError("JOB_COMPLETION_INDEX is set: give --shards N, N being the Job's completions")
        k, n, whence = number("JOB_COMPLETION_INDEX") + 1, shards, f"JOB_COMPLETION_INDEX={env['JOB_COMPLETION_INDEX']}"
    elif "CI_NODE_INDEX" in env and "CI_NODE_TOTAL" in env:
        k, n, whence = number("CI_NODE_INDEX"), number("CI_NODE_TOTAL"), f"CI_NODE_INDEX={env['CI_NODE_INDEX']}"
    elif shards is not None:
        raise LoopcraftError(
            "--shards N needs the index of a job array's task (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX); "
            "outside one, give --shard K/N"
        )
    else:
        return (1, 1), ""
    if shards is not None and shards != n:
        raise LoopcraftError(f"--shards {shards}, but {whence} is one of {n}")
    if not 1 <= k <= n:
        raise LoopcraftError(f"{whence}: shard {k} of {n} does not exist")
    return (k, n), whence
