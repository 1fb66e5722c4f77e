"""Files too large to be a solution: 300 KB of code, and a 92 MB file of control bytes (made sparse here) whose
text would pass V8's string limit in the runner's request."""

EXPECT = {
    "olga": {"status": "unread", "message": "over the 262,144 bytes a submission may have"},
    "otto": {"status": "unread", "message": "over the 262,144 bytes a submission may have"},
}


def build(folder, course, slug):
    (folder / "olga").mkdir()
    (folder / "olga" / f"{slug}.py").write_text("x = 1\n" * 50_000)
    (folder / "otto").mkdir()
    with open(folder / "otto" / f"{slug}.py", "wb") as big:
        big.truncate(92 * 1024 * 1024)
