"""Solutions that are links to the host's files: /etc/passwd (its text would appear in the verdict) and
/proc/self/mem (reading it kills the reader)."""

import os

EXPECT = {
    "pat": {"status": "unread", "message": "a link; only regular files are read"},
    "pem": {"status": "unread", "message": "a link; only regular files are read"},
}


def build(folder, course, slug):
    for learner, target in (("pat", "/etc/passwd"), ("pem", "/proc/self/mem")):
        (folder / learner).mkdir()
        os.symlink(target, folder / learner / f"{slug}.py")
