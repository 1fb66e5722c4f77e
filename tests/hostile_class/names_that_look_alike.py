"""Names that read as an honest learner's ("ada") but are not: one ending in an invisible character (a word
joiner), one in a space, one with the Hangul filler that renders blank. Each is a learner of its own, graded as
any other, whose name shows what sets it apart (escaped), so that no two rows of a gradebook or a report look the
same."""

EXPECT = {
    "ada\\u2060": {"status": "pass"},
    "ada\\x20": {"status": "pass"},
    "ada\\u3164": {"status": "pass"},
}


def build(folder, course, slug):
    solution = (course / "exercises" / "build-an-agent" / slug / "solution.py").read_text()
    for name in ("ada\u2060", "ada ", "ada\u3164"):
        (folder / name).mkdir()
        (folder / name / f"{slug}.py").write_text(solution)
