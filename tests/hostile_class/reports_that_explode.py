"""Small submissions whose verdicts would be huge as written: a value of 98 nested lists (well inside every cap
of the interpreter, but re-indented at every level it was 104 MB of report), and a dict of 10,000 unexpected keys
(its failure message names every one)."""

EXPECT = {
    "nest": {"status": "fail", "message": "Expected a dict, got a list."},
    "keys": {"status": "fail", "message": "characters not shown"},
}

NEST = """
def run_agent(**kwargs):
    value = ["x" * 40] * 200
    for _ in range(97):
        value = [value, "y" * 40]
    return value
"""
KEYS = """
def run_agent(**kwargs):
    return {f"k{i}": 0 for i in range(10_000)}
"""


def build(folder, course, slug):
    for learner, source in (("nest", NEST), ("keys", KEYS)):
        (folder / learner).mkdir()
        (folder / learner / f"{slug}.py").write_text(source)
