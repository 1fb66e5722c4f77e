"""A solution that is a hard link to the reference solution (a tar archive can carry one): another name of the
reference's own file, no link to see, and read through it, it would pass (issue 38)."""

import os
import shutil

EXPECT = {"hal": {"status": "unread", "message": "a hard link (2 names of one file)"}}


def build(folder, course, slug):
    (folder / "hal").mkdir()
    # A hard link must stay on the file system of its target: a copy of the reference, beside the class folder,
    # stands for the course's.
    reference = folder.parent / f"{slug}-reference.py"
    if not reference.exists():
        shutil.copy(next(course.glob(f"exercises/*/{slug}/solution.py")), reference)
    os.link(reference, folder / "hal" / f"{slug}.py")
