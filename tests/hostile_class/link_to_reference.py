"""A solution that is a link to the reference solution: read through the link, it would pass."""

import os

EXPECT = {"lee": {"status": "unread", "message": "a link; only regular files are read"}}


def build(folder, course, slug):
    (folder / "lee").mkdir()
    target = next(course.glob(f"exercises/*/{slug}/solution.py"))
    os.symlink(target, folder / "lee" / f"{slug}.py")
