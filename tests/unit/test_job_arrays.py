"""Job arrays: `class` takes its shard from the variables Slurm, a Kubernetes Indexed Job or GitLab's parallel jobs
set (loopcraft/commands/class_.py, `shard_of`), and refuses those that disagree or name no shard. A simulated array run whole and
merged is tests/integration/test_job_arrays_merged.py."""

from __future__ import annotations

import pytest

from loopcraft.commands.class_ import shard_of
from loopcraft.course.errors import LoopcraftError


def slurm(task: int, first: int, count: int, step: int = 1) -> dict[str, str]:
    """The variables of one task of `sbatch --array=FIRST-LAST[:STEP]`, as Slurm sets them."""
    last = first + (count - 1) * step
    return {
        "SLURM_JOB_ID": str(7000 + task),
        "SLURM_ARRAY_JOB_ID": "7000",
        "SLURM_ARRAY_TASK_ID": str(task),
        "SLURM_ARRAY_TASK_MIN": str(first),
        "SLURM_ARRAY_TASK_MAX": str(last),
        "SLURM_ARRAY_TASK_STEP": str(step),
        "SLURM_ARRAY_TASK_COUNT": str(count),
    }


def test_the_shard_comes_from_the_array_s_variables():
    assert shard_of(None, None, {}) == ((1, 1), "")
    assert shard_of((2, 3), None, slurm(0, 0, 5)) == ((2, 3), "")  # --shard wins
    assert shard_of(None, None, slurm(0, 0, 4)) == ((1, 4), "SLURM_ARRAY_TASK_ID=0")
    assert shard_of(None, None, slurm(4, 1, 4))[0] == (4, 4)  # --array=1-4
    assert shard_of(None, None, slurm(20, 10, 6, step=2))[0] == (6, 6)  # --array=10-20:2
    assert shard_of(None, 4, slurm(3, 0, 4))[0] == (4, 4)
    assert shard_of(None, 3, {"JOB_COMPLETION_INDEX": "0"}) == ((1, 3), "JOB_COMPLETION_INDEX=0")
    assert shard_of(None, None, {"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "5"})[0] == (2, 5)
    for shard, shards, env, message in [
        (None, None, {"JOB_COMPLETION_INDEX": "1"}, "give --shards N, N being the Job's completions"),
        (None, 3, {"JOB_COMPLETION_INDEX": "3"}, "shard 4 of 3 does not exist"),
        (None, 3, slurm(0, 0, 4), "--shards 3, but SLURM_ARRAY_TASK_ID=0 is one of 4"),
        (None, None, {**slurm(3, 0, 4), "SLURM_ARRAY_TASK_ID": "7"}, "is not one of a range"),
        (None, None, {"SLURM_ARRAY_TASK_ID": "x"}, "SLURM_ARRAY_TASK_ID='x' is not a whole number"),
        (None, None, {"SLURM_ARRAY_TASK_ID": "1"}, "SLURM_ARRAY_TASK_MIN=None is not a whole number"),
        (None, 2, {}, "outside one, give --shard K/N"),
        ((1, 2), 3, {}, "--shard 1/2 and --shards 3 disagree"),
    ]:
        with pytest.raises(LoopcraftError, match=message):
            shard_of(shard, shards, env)
