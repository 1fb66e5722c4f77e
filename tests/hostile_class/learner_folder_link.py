"""A learner "folder" that is a link to another learner's folder (or anywhere on the host)."""

import os

EXPECT = {"lin": {"error": "a link; it was not followed"}}


def build(folder, course, slug):
    os.symlink(course, folder / "lin")
