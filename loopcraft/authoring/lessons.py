"""Run every lesson's live blocks and "what does this print?" snippets once, in Pyodide under Node.

A block that raises without being marked `python live raises` (or is marked and does not raise) stops the
build; what each block printed is published, so the page shows it before the learner presses Run. The output
of a question's snippet is that question's right answer: the author never types it. Results are kept in the
build cache by the code and the Pyodide release, so a rebuild runs only the blocks that changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from grader.results import Status, block_timeout_message
from loopcraft.course.cache import BuildCache
from loopcraft.course.course import Lesson, LiveBlock
from loopcraft.course.errors import Problem
from loopcraft.course.paths import rel_path
from loopcraft.course.project import Project
from loopcraft.running.grading import run_only

# The one request that runs a block (the page sends the same one through its session, see lesson.js).
LIVE_SANDBOX = "from grader.live import run_live\n"
LIVE_ENTRY = "run_live"
LIVE_TIME_LIMIT = 5.0  # seconds, in the page as at build time
# The loop lab's one request (grader/lab.py): the whole grid is one case.
LAB_SANDBOX = "from grader.lab import run_grid\n"
LAB_ENTRY = "run_grid"
LAB_TIME_LIMIT = 20.0  # seconds for the whole grid: a learner's loop that never ends is stopped by it
# A block runs as block.py (grader/live.py): its line N is line N of the fenced code, after the fence's line.
_BLOCK_LINE = re.compile(r'File "block\.py", line (\d+)')


@dataclass(frozen=True)
class BlockRun:
    output: str  # printed, capped by the grader
    value: str | None  # repr of a last bare expression
    error: str | None  # trimmed traceback, or the time-out message

    def to_dict(self) -> dict:
        return {"output": self.output, "value": self.value, "error": self.error}


@dataclass(frozen=True)
class LessonRun:
    blocks: list[BlockRun]  # one per live block, in order
    answers: list[str | None]  # one per question: what an `output` question's snippet printed


def run_lessons(
    project: Project, lessons: list[Lesson], cache: BuildCache | None = None, runner=None
) -> tuple[dict[tuple[str, str], LessonRun], list[Problem]]:
    """{(track, slug): LessonRun} and the problems found; starts Pyodide only if some code is not cached."""
    codes = [code for lesson in lessons for code in _codes(lesson)]
    version = (project.pyodide / "package.json").read_bytes() if cache else b""
    keys = {code: cache.key("live", version, code) for code in codes} if cache else {}
    done: dict[str, BlockRun] = {}
    for code in codes:
        if cache and (hit := cache.get_json("live", keys[code])) is not None:
            done[code] = BlockRun(**hit)
    missing = list(dict.fromkeys(code for code in codes if code not in done))
    if missing:
        if runner is None:
            from loopcraft.running.runners import make_runner  # needs Node and Pyodide, so only when something must run

            with make_runner("trusted", project) as own:  # the author's own code: no fresh interpreter per block
                done.update(_run(own, missing))
        else:
            done.update(_run(runner, missing))
        if cache:
            for code in missing:
                cache.put_json("live", keys[code], done[code].to_dict())
    runs, problems = {}, []
    for lesson in lessons:
        runs[(lesson.track, lesson.slug)] = LessonRun(
            blocks=[done[b.code] for b in lesson.blocks],
            answers=[done[q.code].output if q.kind == "output" else None for q in lesson.questions],
        )
        problems += _problems(project.root, lesson, done)
    return runs, problems


def _codes(lesson: Lesson) -> list[str]:
    return [b.code for b in lesson.blocks] + [q.code for q in lesson.questions if q.kind == "output"]


def _run(runner, codes: list[str]) -> dict[str, BlockRun]:
    tests = run_only(
        runner,
        source="",
        sandbox=LIVE_SANDBOX,
        entry=LIVE_ENTRY,
        time_limit=LIVE_TIME_LIMIT,
        args=[{"code": code} for code in codes],
    )
    runs = {}
    for code, test in zip(codes, tests, strict=True):
        if test.passed:
            runs[code] = BlockRun(test.output, test.actual["value"], test.actual["error"])
        elif test.status == Status.TIMEOUT:  # in a lesson's words: it has blocks, not cases
            runs[code] = BlockRun(test.output, None, block_timeout_message(LIVE_TIME_LIMIT))
        else:  # the grader's own error (the block broke its environment, say)
            runs[code] = BlockRun(test.output, None, test.message)
    return runs


def _failing_line(block: LiveBlock, error: str) -> int:
    """The line of lesson.md that a block's traceback points at (its last line in the block), else the fence's."""
    lines = _BLOCK_LINE.findall(error)
    return block.line + int(lines[-1]) if lines else block.line


def _last_line(text: str) -> str:
    return text.strip().splitlines()[-1].strip() if text.strip() else text


def _problems(root: Path, lesson: Lesson, done: dict[str, BlockRun]) -> list[Problem]:
    md = rel_path(lesson.dir / "lesson.md", root)
    yaml = rel_path(lesson.dir / "lesson.yaml", root)
    problems = []
    for block in lesson.blocks:
        run = done[block.code]
        if run.error and not block.raises:
            problems.append(
                Problem(
                    md,
                    _failing_line(block, run.error),
                    f"live block raised {_last_line(run.error)!r}; fix it, or "
                    "mark it ```python live raises``` if it is meant to",
                )
            )
        elif block.raises and not run.error:
            problems.append(Problem(md, block.line, "live block is marked `raises` but ran without an error"))
    for i, question in enumerate(lesson.questions):
        if question.kind != "output":
            continue
        run = done[question.code]
        where = f"questions[{i}].code"
        if run.error:
            problems.append(
                Problem(
                    yaml,
                    question.line,
                    f"{where}: the snippet fails ({_last_line(run.error)}); its output is the answer, so it must run",
                )
            )
        elif not run.output.strip():
            problems.append(Problem(yaml, question.line, f"{where}: the snippet prints nothing"))
        else:
            problems += [
                Problem(yaml, line, f"questions[{i}].wrong[{j}]: this wrong output is what the snippet really prints")
                for j, (option, line) in enumerate(zip(question.options, question.option_lines, strict=True))
                if option.text.strip() == run.output.strip()
            ]
    return problems
