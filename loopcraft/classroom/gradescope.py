"""A Gradescope autograder for one challenge or several: `build.py gradescope SLUG... --out autograder.zip`.

The zip holds what grading needs and nothing of the site: the grader, loopcraft, the Node runner (frontend/), the
schemas, the chosen challenges (their track cut to them: no other challenge's solution or private cases), the project's lock files and `requirements.txt` (the dependencies of
pyproject.toml), `autograder.json` (which challenges), and Gradescope's two scripts (loopcraft/classroom/autograder/):
`setup.sh` installs Node.js, Python and the packages on Gradescope's Ubuntu image, then runs `check` (each reference
solution must pass: the installation works, and the runner's memory snapshot is made once); `run_autograder` runs
`run`: it reads /autograder/submission/ by a class's intake rules, wherever in its folders the files lie
(`intake.read_submission`: SLUG.py, or for one challenge the one Python file, or the progress file the site exports),
grades it in the same Pyodide, and writes /autograder/results/results.json in Gradescope's format
(schemas/gradescope-results.schema.json).

Each case is a test worth a share of the challenge's points (track.yaml's `points`, 1 unless set; `shares`), so a
challenge's score is its points times the share of its cases passed, as in the LMS imports. A challenge whose hand-in
could not be taken (no file, two candidates, a link, not UTF-8, too large) is one failing test worth its points, which
says why and what the submission holds. What a student sees of a case is `grader.results.learner_view`'s rule: a
visible case whole (`visible`), a hidden one without values and a private one by name and status only, both
`after_published` (Gradescope's `hidden` is for tests that carry no points). The zip is the same bytes for the same
sources.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
import zipfile
from decimal import Decimal
from pathlib import Path

from grader.results import RunResult, learner_view
from loopcraft.authoring.mistakes import said
from loopcraft.authoring.verify import catalogues
from loopcraft.course import yamlfile
from loopcraft.course.cache import BuildCache
from loopcraft.course.course import Exercise, Track
from loopcraft.course.errors import LoopcraftError
from loopcraft.course.load import load_course
from loopcraft.course.project import INSTALL, Project
from loopcraft.course.schemas import validation_error
from loopcraft.running.grading import Grader, Runners

from .intake import read_submission
from .printable import lines

SCRIPTS = Path(__file__).with_name("autograder")
CONFIG = "autograder.json"
# What grading needs, relative to the project's root: folders whole (but caches), and single files.
FOLDERS = ["grader", "loopcraft", "frontend", "schemas"]
FILES = ["pyproject.toml", "package.json", "package-lock.json"]
_EPOCH = (1980, 1, 1, 0, 0, 0)  # every entry's time, so that the same sources give the same zip


def _chosen(tracks: list[Track], slugs: list[str]) -> list[tuple[Track, Exercise]]:
    found = {ex.slug: (track, ex) for track in tracks for ex in track.exercises}
    unknown = [slug for slug in slugs if slug not in found]
    if unknown:
        raise LoopcraftError(f"no such challenge: {', '.join(unknown)}")
    return [found[slug] for slug in dict.fromkeys(slugs)]


def _walk(folder: Path):
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and not path.name.startswith("."):
            yield path


def requirements(root: Path) -> str:
    """pyproject.toml's dependencies, one a line, for setup.sh's pip."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return "".join(f"{dependency}\n" for dependency in project["dependencies"])


def build(project: Project, slugs: list[str], out: Path) -> int:
    """Write the autograder zip for `slugs`; returns how many files it holds."""
    chosen = _chosen(load_course(project.root), slugs)
    files: dict[str, bytes | Path] = {}
    for name in FOLDERS:
        for path in _walk(INSTALL / name):
            files[path.relative_to(INSTALL).as_posix()] = path
    for name in FILES:
        files[name] = INSTALL / name
    for track_dir in dict.fromkeys(track.dir for track, _ in chosen):
        mine = {ex.slug for track, ex in chosen if track.dir == track_dir}
        files.update(_track_files(project, track_dir, mine))
    files["requirements.txt"] = requirements(INSTALL).encode()
    config = {"challenges": [ex.slug for _, ex in chosen]}
    files[CONFIG] = (json.dumps(config, indent=1) + "\n").encode()
    files["setup.sh"] = SCRIPTS / "setup.sh"
    files["run_autograder"] = SCRIPTS / "run_autograder"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            content = files[name]
            info = zipfile.ZipInfo(name, _EPOCH)
            executable = isinstance(content, Path) and content.stat().st_mode & 0o111
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, content.read_bytes() if isinstance(content, Path) else content)
    tmp.replace(out)
    return len(files)


def _track_files(project: Project, track_dir: Path, slugs: set[str]) -> dict[str, bytes | Path]:
    """What of a track the autograder of `slugs` holds: the chosen challenges' folders (their reference solution, which
    setup.sh's check runs, and their private cases, which grading needs), the track's own files (its sandboxes and
    scenario generators, which pages publish anyway), and its track.yaml cut to those challenges. Not the other
    challenges' solutions and private cases, nor the lessons: one hole in the sandbox would give away what the zip
    holds, and it then holds only what it grades."""
    files: dict[str, bytes | Path] = {}
    for path in _walk(track_dir):
        inside = path.relative_to(track_dir).parts
        if (len(inside) == 1 and path.name != "track.yaml") or (len(inside) > 1 and inside[0] in slugs):
            files[path.relative_to(project.root).as_posix()] = path
        if inside[1:] == ("exercise.yaml",) and inside[0] in slugs:
            files[path.relative_to(project.root).as_posix()] = spec_cut_to(path, slugs).encode()
    track = yamlfile.load(track_dir / "track.yaml")
    track.pop("lab", None)  # its loops are other challenges
    for part in track.get("parts", [track]):
        if "challenges" in part:
            part["challenges"] = [slug for slug in part["challenges"] if slug in slugs]
    if "parts" in track:
        track["parts"] = [part for part in track["parts"] if part["challenges"]]
    if "points" in track:
        track["points"] = {slug: worth for slug, worth in track["points"].items() if slug in slugs}
        if not track["points"]:
            del track["points"]
    files[(track_dir / "track.yaml").relative_to(project.root).as_posix()] = yamlfile.to_text(track).encode()
    return files


def spec_cut_to(spec: Path, slugs: set[str] | list[str]) -> str:
    """A challenge's exercise.yaml in a course cut to `slugs`: without its `builds_on` when the challenge it names is
    cut (the course would not load: `builds_on` must name a challenge of the track), comments and layout kept."""
    data = yamlfile.load(spec)
    if data.get("builds_on") not in (None, *slugs):
        del data["builds_on"]
    return yamlfile.to_text(data)


def _challenges(project: Project) -> list[tuple[Track, Exercise]]:
    config = json.loads((project.root / CONFIG).read_text(encoding="utf-8"))
    # The build cache keeps the course's YAML parsed (setup.sh's check fills it): a second off each student's run.
    return _chosen(load_course(project.root, cache=BuildCache(project.root)), config["challenges"])


def value_text(value) -> str:
    """A value in a test's output: indented while that costs little, compact otherwise (a list nested 98 deep,
    indented, grew a bounded result 100 times over), as text any output can hold (a lone surrogate, which no UTF-8
    file can, escaped: one returned made results.json unwritable, and the student got no score at all)."""
    compact = json.dumps(value, ensure_ascii=False)
    indented = json.dumps(value, ensure_ascii=False, indent=1)
    return lines(indented if len(indented) <= 2 * len(compact) + 2_000 else compact)


def case_text(view: dict) -> str:
    """A case as a student reads it in Gradescope's test output, from what they may see of it (`learner_view`): the
    call, both sides as Python writes them (a value, or an exception), the printed text expected and printed, and the
    known mistake its failure looks like, as the page shows them."""
    out = [lines(view["message"])] if view.get("message") else []
    if view.get("call_shown"):
        out += ["Call:", lines(view["call_shown"])]
    # As Python writes them where the run said so (its values as JSON otherwise); a case of printed text alone has none.
    if view.get("expected_shown") or ("expected" in view and "expected_stdout" not in view):
        expected = lines(view["expected_shown"]) if view.get("expected_shown") else value_text(view["expected"])
        yours = lines(view["actual_shown"]) if view.get("actual_shown") else value_text(view.get("actual"))
        out += ["Expected:", expected, "Yours:", yours]
    if "expected_stdout" in view:
        out += ["Expected output:", lines(view["expected_stdout"]), "Your output:", lines(view.get("stdout") or "")]
    if view.get("output") and view["output"] != view.get("stdout"):
        out += ["Printed:", lines(view["output"])]
    if view.get("trace"):
        out.append("Trace:")
        for event in view["trace"]:
            rest = {key: value for key, value in event.items() if key != "kind"}
            out.append(lines(f"  {event.get('kind')}: {json.dumps(rest, ensure_ascii=False)}"))
    if view.get("mistake"):
        out.append(lines(said(view["mistake"])))
    if view.get("truncated"):
        out.append(f"(cut short: {', '.join(view['truncated'])})")
    return "\n".join(out)


def shares(points: float, count: int) -> list[float]:
    """`points` shared among `count` cases in whole millionths that add up to `points` exactly as decimals (the text
    results.json holds), the first ones a millionth more where they do not divide evenly (largest remainder: each is
    within a millionth of points / count). Rounded shares did not add up: 1 point over 17 cases, 0.058824 each, made
    tests worth 1.000008. Points past their sixth decimal are rounded to it."""
    whole, extra = divmod(round(Decimal(repr(points)) * 1_000_000), count)
    return [(whole + (i < extra)) / 1_000_000 for i in range(count)]


def results(graded: list[tuple[Exercise, float, RunResult | str]]) -> dict:
    """results.json: per challenge (its exercise, points, and verdict, or why the hand-in could not be taken), a test
    per case worth its share of the points, or one failing test worth all of them.

    Gradescope Autograder Specifications (gradescope-autograders.readthedocs.io/en/latest/specs/, "Output format"):
    the top-level `score` is "optional, but required if not on each test case", and each test has its `score`,
    `max_score`, `status`, `visibility` and `output`. Both are written here, so they must agree: the score is the sum
    of the tests' scores, as decimals, and the maxima add up to the assignment's points."""
    tests, summary = [], []
    for ex, points, result in graded:
        if isinstance(result, str):
            tests.append(
                {
                    "name": f"{ex.title}: your submission could not be graded",
                    "score": 0.0,
                    "max_score": shares(points, 1)[0],
                    "status": "failed",
                    "output": lines(result),
                    "visibility": "visible",
                }
            )
            summary.append(f"{ex.title}: your submission could not be graded. {lines(result)}")
            continue
        written = result.to_dict()  # bounded as it is stored; each case then cut to what a student may see
        for case, case_doc, worth in zip(
            result.tests, written["tests"], shares(points, len(result.tests)), strict=True
        ):
            tests.append(
                {
                    "name": case.name if len(graded) == 1 else f"{ex.title}: {case.name}",
                    "score": worth if case.passed else 0.0,
                    "max_score": worth,
                    "status": "passed" if case.passed else "failed",
                    "output": case_text(learner_view(case_doc)),
                    "visibility": "after_published" if case.hidden else "visible",
                }
            )
        line = f"{ex.title}: {sum(case.passed for case in result.tests)} of {len(result.tests)} cases pass"
        summary.append(line + (f". {lines(written['message'])}" if written["message"] else ""))
        summary += [lines(said(hint)) for hint in result.mistakes]
    score = float(sum(Decimal(repr(test["score"])) for test in tests))
    return {"score": score, "output": "\n".join(summary), "stdout_visibility": "hidden", "tests": tests}


def run(project: Project, root: Path, runners: Runners | None = None) -> int:
    """Grade ROOT/submission/ and write ROOT/results/results.json (Gradescope's layout, ROOT being /autograder), in a
    runner of its own or one lent by `runners` (the tests')."""
    chosen = _challenges(project)
    exercises = [ex for _, ex in chosen]
    challenge = exercises[0].slug if len(exercises) == 1 else None
    learner = read_submission(root / "submission", exercises, challenge)
    graded = []
    known = catalogues(project, exercises)  # the known mistakes, named to the student as the page names them
    with Grader(project, runners) as grader:
        for track, ex in chosen:
            problem = learner.error or learner.sources[ex.slug].error
            result = problem or grader.grade(ex, learner.sources[ex.slug].text, catalogue=known[ex.track, ex.slug])
            graded.append((ex, track.points_of(ex.slug), result))
    for failure in grader.failures:
        print(f"a submission stopped the runner twice; it said: {failure[:2000]}", file=sys.stderr)
    doc = results(graded)
    if learner.notes:
        doc["output"] += "\n" + "\n".join(lines(note) for note in learner.notes)
    problem = validation_error(doc, "gradescope-results.schema.json")
    if problem:  # a bug of ours: say so rather than hand Gradescope a file it cannot read
        raise LoopcraftError(f"results.json would not match schemas/gradescope-results.schema.json: {problem}")
    (root / "results").mkdir(parents=True, exist_ok=True)
    (root / "results" / "results.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    print(doc["output"])
    return 0


def check(project: Project) -> int:
    """setup.sh's last step: every chosen challenge's reference solution passes here."""
    with Grader(project) as grader:
        for _, ex in _challenges(project):
            result = grader.grade(ex, ex.solution_source)
            print(f"{ex.slug}: the reference solution {'passes' if result.passed else 'FAILS'}")
            if not result.passed:
                return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m loopcraft.classroom.gradescope", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="grade each reference solution (setup.sh's last step)")
    grade = commands.add_parser("run", help="grade ROOT/submission/ into ROOT/results/results.json")
    grade.add_argument("--root", type=Path, default=Path("/autograder"))
    args = parser.parse_args(argv)
    try:
        # The autograder is this installation: /autograder/source on Gradescope.
        project = Project(INSTALL)
        return check(project) if args.command == "check" else run(project, args.root)
    except LoopcraftError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
