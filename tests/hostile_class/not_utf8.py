"""Bytes that are not UTF-8: in a solution (that learner's error) and in a learner's folder name (graded, the
name escaped, and every later step still writes its files)."""

EXPECT = {
    "uma": {"status": "unread", "message": "not UTF-8 text (byte 0xff at offset 4)"},
    "caf\\xe9": {"status": "pass"},
}


def build(folder, course, slug):
    (folder / "uma").mkdir()
    (folder / "uma" / f"{slug}.py").write_bytes(b"def \xff():\n    pass\n")
    learner = folder / b"caf\xe9".decode("utf-8", "surrogateescape")
    learner.mkdir()
    reference = next(course.glob(f"exercises/*/{slug}/solution.py"))
    (learner / f"{slug}.py").write_bytes(reference.read_bytes())
