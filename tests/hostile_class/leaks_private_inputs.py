"""A submission that prints its arguments and raises with them, so that any report showing a private case's
output or message would hand its inputs to the learner."""

EXPECT = {"lex": {"status": "fail", "message": "LEAK"}}

SOURCE = """
import json

def run_agent(**kwargs):
    print("LEAK", json.dumps(kwargs))
    raise RuntimeError("LEAK " + json.dumps(kwargs))
"""


def build(folder, course, slug):
    (folder / "lex").mkdir()
    (folder / "lex" / f"{slug}.py").write_text(SOURCE)
