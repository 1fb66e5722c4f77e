"""Names that become the same: a folder and a progress file for one learner, and two names that differ only by
Unicode normalisation ("José" typed two ways). Each is an error row of its own; no one else is touched."""

import json

EXPECT = {
    "bob #1": {"error": "read the same"},
    "bob #2": {"error": "read the same"},
    "Jos\u00e9 #1": {"error": "read the same"},
    "Jos\u00e9 #2": {"error": "read the same"},
}


def build(folder, course, slug):
    (folder / "bob").mkdir()
    (folder / "bob" / f"{slug}.py").write_text("def run_agent(**kw):\n    return {}\n")
    (folder / "bob.json").write_text(json.dumps({"format": "loopcraft-progress", "version": 1, "entries": {}}))
    for name in ("Jos\u00e9", "Jose\u0301"):
        (folder / name).mkdir()
        (folder / name / f"{slug}.py").write_text("def run_agent(**kw):\n    return {}\n")
