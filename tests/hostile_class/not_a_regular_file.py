"""A solution that is a FIFO (opening it for reading blocks forever) or a folder."""

import os

EXPECT = {
    "fifi": {"status": "unread", "message": "not a regular file"},
    "dora": {"status": "unread", "message": "not a regular file"},
}


def build(folder, course, slug):
    (folder / "fifi").mkdir()
    os.mkfifo(folder / "fifi" / f"{slug}.py")
    (folder / "dora" / f"{slug}.py").mkdir(parents=True)
