"""A zip where a solution should be: a learner's folder holding nothing but a zip (a bomb, as it happens) named after
the challenge. A class folder's zips are never opened (only `class SUBMISSIONS.zip` is read as a zip): the learner
has nothing to grade, and the notes name the zip that was left aside."""

import io
import zipfile

EXPECT = {"zed": {"status": "missing"}}


def build(folder, course, slug):
    (folder / "zed").mkdir()
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(f"{slug}.py", b"\0" * 20_000_000)
    (folder / "zed" / f"{slug}.zip").write_bytes(data.getvalue())
