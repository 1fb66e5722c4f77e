"""Names that become the same: a folder and a progress file for one learner, and two names that differ only by
Unicode normalisation ("José" typed two ways). Each is an error row of its own; no one else is touched, not even a
learner named as the error rows are numbered ("bob #1": the rows of the two bobs are numbered past it)."""

import json

EXPECT = {
    "bob #1": {"status": "fail"},
    "bob #2": {"error": "read the same"},
    "bob #3": {"error": "read the same"},
    "Jos\u00e9 #1": {"error": "read the same"},
    "Jos\u00e9 #2": {"error": "read the same"},
}


def build(folder, course, slug):
    (folder / "bob").mkdir()
    (folder / "bob" / f"{slug}.py").write_text("def run_agent(**kw):\n    return {}\n")
    (folder / "bob.json").write_text(json.dumps({"format": "loopcraft-progress", "version": 1, "entries": {}}))
    (folder / "bob #1").mkdir()
    (folder / "bob #1" / f"{slug}.py").write_text("def run_agent(**kw):\n    return {}\n")
    for name in ("Jos\u00e9", "Jose\u0301"):
        (folder / name).mkdir()
        (folder / name / f"{slug}.py").write_text("def run_agent(**kw):\n    return {}\n")
