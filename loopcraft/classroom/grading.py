"""Grading, the stage of a class run between the store and the gradebook: the submissions the store has no verdict
for, graded in runners (loopcraft.running.grading), or, with nothing to run, given their reason as verdict, each
verdict stored as it is made, so a crashed run resumes.
"""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed

from tqdm import tqdm

from grader.results import failed_submission
from loopcraft.authoring.verify import catalogues
from loopcraft.course.project import Project
from loopcraft.running.grading import Grader, Runners

from .printable import one_line, say
from .store import UNSIGNED, Received, Submission, VerdictStore


def grade_all(
    received: Received,
    jobs: int | None,
    store: VerdictStore,
    project: Project,
    runners: Runners | None,
    *,
    learners: str,
    challenges: int,
) -> None:
    """Grade what the store `received` to grade in `jobs` runners at once (default: the number of cores; of their own,
    or lent by `runners`), storing each verdict as it comes, with the known mistakes it looks like named in it
    (verify.catalogues, of the challenges graded); first told: what the store said of the hand-ins, how many there
    are (of `learners`, `challenges`), and the kept verdicts graded again. The refused (nothing to run) are stored
    first, their reason their verdict. What the runner said about each submission that broke it is told too (their
    verdicts are errors, stored like any other)."""
    todo = received.todo
    for line in received.said:
        say(line)
    jobs = jobs or os.cpu_count() or 1
    say(
        f"{learners}, {challenges} challenge{'s' if challenges != 1 else ''}: "
        f"{received.kept + len(received.refused) + len(todo)} submissions, {received.kept} already graded, "
        f"grading {len(todo)} with {min(jobs, max(len(todo), 1))} runner(s)"
    )
    if received.unsigned:
        unsigned = received.unsigned
        say(
            f"{len(unsigned)} kept verdict{'s' if len(unsigned) != 1 else ''} {UNSIGNED}, graded again (edited, or "
            f"graded with another key): {', '.join(map(str, unsigned[:20]))}{' ...' if len(unsigned) > 20 else ''}"
        )
    graded = list({sub.exercise.slug: sub.exercise for sub in todo}.values())
    known = catalogues(project, graded) if graded else {}
    local = threading.local()
    graders: list[Grader] = []
    lock = threading.Lock()

    def work(sub: Submission) -> None:
        ex, source = sub.exercise, sub.source
        if source.error is None:
            if getattr(local, "grader", None) is None:
                local.grader = Grader(project, runners)
                with lock:
                    graders.append(local.grader)
            result = local.grader.grade(ex, source.text, catalogue=known[ex.track, ex.slug]).to_dict(hidden_actual=True)
        else:  # nothing to run: its verdict is the reason, stored like any other
            result = failed_submission(ex.cases, source.error).to_dict()
        store.put(sub.learner, ex.slug, source, sub.key, result)

    for sub in received.refused:
        work(sub)
    try:
        with (
            ThreadPoolExecutor(max_workers=jobs) as pool,
            tqdm(total=len(todo), unit="submission", file=sys.stderr, disable=None, dynamic_ncols=True) as bar,
        ):
            for future in as_completed([pool.submit(work, sub) for sub in todo]):
                future.result()
                bar.update()
    finally:
        for g in graders:
            g.close()
    say_failures([failure for g in graders for failure in g.failures])


def say_failures(failures: list[str]) -> None:
    """Tell the teacher what the runner said of each submission that stopped it twice (its verdict is an error)."""
    for failure in failures:
        say(f"a submission stopped the runner twice and is an error; the runner said: {one_line(failure)[:2000]}")
