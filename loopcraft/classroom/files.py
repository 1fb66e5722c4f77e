"""A file read as a class run reads any file another could have put in its place, a learner's (intake.py) or one
of its own in the output folder (store.py): a regular file of its own, opened through no link, at most so many
bytes. What cannot be read (or taken, in intake and zipped.py) is `Refused`, with why, for whoever handed it in.
"""

from __future__ import annotations

import errno
import os
import stat

# A folder opened without following a link.
NO_LINK_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Refused(Exception):
    """A submission (or a learner's whole hand-in) that cannot be taken: the message is for the learner."""


def too_big(origin: str, size: int, cap: int) -> Refused:
    return Refused(f"{origin}: {size:,} bytes, over the {cap:,} bytes a submission may have")


def read_regular(dir_fd: int, name: str, origin: str, cap: int) -> bytes:
    """The bytes of the regular file `name` in the folder open as `dir_fd`, at most `cap` of them."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a link
            raise Refused(f"{origin}: a link; only regular files are read") from None
        raise Refused(f"{origin}: could not be opened ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"{origin}: not a regular file; only regular files are read")
        if info.st_nlink > 1:
            # A hard link is a name of another file, anywhere on this file system (a tar can carry one to the
            # course's reference solution): as a link is, it is that file's, not the learner's.
            raise Refused(f"{origin}: a hard link ({info.st_nlink} names of one file); only a file of its own is read")
        if info.st_size > cap:
            raise too_big(origin, info.st_size, cap)
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 16, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:  # it grew while being read
            raise too_big(origin, size, cap)
        return b"".join(chunks)
    finally:
        os.close(fd)
