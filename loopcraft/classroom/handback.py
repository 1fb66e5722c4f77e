"""Feedback back through the LMS: each learner's feedback page (feedback.py: only what a learner may see) packed as
the LMS's bulk upload takes it, for the learners matched with its roster.

- Canvas, `canvas-comments.zip`, for the assignment's "Re-Upload Submissions": Canvas reads each file's owner from
  its name (instructure/canvas-lms, app/models/assignment.rb, Assignment#infer_comment_context_from_filename: the
  first two parts between underscores that are all digits are the user id and the id of a file of that user's
  submission) and adds the file to that submission as a comment. A learner who handed in no file (a text entry)
  has no file id to name: listed instead.
- Moodle, `moodle-feedback.zip`, for the assignment's "Upload multiple feedback files in a zip" (moodle/moodle,
  mod/assign/feedback/file/importziplib.php, is_valid_filename_for_import: a path part that splits on underscores
  into a name, the participant id and a plugin's type and name is that participant's folder; what follows is the
  file's name).

Names hold nothing a learner chose (no names, only ids), so none can point a page at another learner.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from .store import read_inside, write_atomically

_EPOCH = (1980, 1, 1, 0, 0, 0)  # every entry's time: the same pages give the same zip
FILES = {"canvas": "canvas-comments.zip", "moodle": "moodle-feedback.zip"}
# Far more than any page this run writes (its cases are bounded); less than a file made to fill the memory.
PAGE_BYTES = 1 << 30


def entry_name(lms: str, ids: dict[str, str]) -> str | None:
    """The name of a learner's page in the LMS's upload, by their ids there (lms.handback_ids), or None if the LMS
    cannot take one for them."""
    if lms == "canvas":
        if "canvas_attachment" not in ids or not ids.get("canvas", "").isdigit():
            return None
        return f"feedback_{ids['canvas']}_{ids['canvas_attachment']}_loopcraft.html"
    if not ids.get("moodle", "").isdigit():
        return None
    return f"feedback_{ids['moodle']}_assignfeedback_file/loopcraft-feedback.html"


def write(out: Path, lms: str, rows: list[tuple[dict[str, str], dict]], pages: dict[str, str]) -> list[str]:
    """OUT/canvas-comments.zip or OUT/moodle-feedback.zip of the learners `rows` ((their ids in the LMS, their
    gradebook row) for each roster learner matched: a team's page goes to each member), `pages` naming each one's
    page in OUT/feedback/; returns what the teacher should be told."""
    packed, without = io.BytesIO(), []
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as z:
        for ids, row in rows:
            name = entry_name(lms, ids)
            if name is None:
                without.append(row["learner"])
                continue
            info = zipfile.ZipInfo(name, _EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            z.writestr(info, read_inside(out, f"feedback/{pages[row['learner']]}", PAGE_BYTES))
    write_atomically(out, FILES[lms], packed.getvalue())
    said = [f"{FILES[lms]}: the feedback pages of {len(rows) - len(without)} learners, for the LMS's bulk upload"]
    if without:
        said.append(
            f"{FILES[lms]}: no page for {len(without)} learners who handed in no file for Canvas to attach a comment "
            f"to (a text entry): hand theirs back by hand ({', '.join(without[:5])}{'...' if len(without) > 5 else ''})"
        )
    return said
