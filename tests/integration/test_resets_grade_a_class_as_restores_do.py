"""A second proof of resets (tests/pyodide/test_reset_in_place.py proves, pair by pair in the runner a class uses,
that nothing crosses a reset): a class graded with interpreters reset in place is byte for byte the class graded
with every interpreter restored from the snapshot."""

from __future__ import annotations

from tests.helpers import ROOT, run_grader
from tests.pyodide.test_reset_in_place import PAIRS, SLUG


def test_a_class_graded_with_resets_is_byte_equal_to_one_graded_with_restores(tmp_path, runners, restored_runners):
    """Honest submissions and pairs of the corpus (some reset after, some restored) as a class: the gradebook and the
    verdicts are the same bytes either way."""
    folder = tmp_path / "class"
    challenge = ROOT / "exercises" / "build-an-agent" / SLUG
    learners = {"ada": (challenge / "solution.py").read_text(encoding="utf-8")}
    learners["ben"] = (challenge / "wrong" / "no_reset.py").read_text(encoding="utf-8")
    for name in ("files", "sys_modules", "environment", "builtins", "memory_grown"):
        learners[f"{name}-a"], learners[f"{name}-b"] = PAIRS[name]
    for learner, source in learners.items():
        (folder / learner).mkdir(parents=True)
        (folder / learner / f"{SLUG}.py").write_text(source, encoding="utf-8")
    outputs = {}
    for kind, pool in (("reset", runners), ("restored", restored_runners)):
        out = tmp_path / kind
        proc = run_grader(pool, "class", folder, "--out", out, "--challenge", SLUG, "--jobs", "1")
        assert proc.returncode in (0, 1), proc.stderr
        outputs[kind] = {
            path.relative_to(out).as_posix(): path.read_bytes()
            for path in sorted(out.rglob("*"))
            if path.is_file() and path.suffix in (".csv", ".json")
        }
    assert outputs["reset"].keys() == outputs["restored"].keys()
    assert "gradebook.csv" in outputs["reset"]
    differ = [name for name in outputs["reset"] if outputs["reset"][name] != outputs["restored"][name]]
    assert not differ, differ[:5]
