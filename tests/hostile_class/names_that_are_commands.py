"""Learner names that a spreadsheet would run as a formula, a terminal would take as escape codes, or that would
forge a line of a report: graded like anyone else's, shown harmlessly."""

EXPECT = {
    '=HYPERLINK("evil.invalid","click")': {"status": "pass"},
    "\\x1b[2Jwiped": {"status": "pass"},
    "eve\\x0a \\x20PASS \\x20\\x20\\x20forged": {"status": "pass"},  # a run of spaces shows as one in HTML
}


def build(folder, course, slug):
    reference = next(course.glob(f"exercises/*/{slug}/solution.py")).read_bytes()
    for name in ('=HYPERLINK("evil.invalid","click")', "\x1b[2Jwiped", "eve\n  PASS    forged"):
        (folder / name).mkdir()
        (folder / name / f"{slug}.py").write_bytes(reference)
