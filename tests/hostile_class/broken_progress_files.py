"""Progress files that break a reader: nested 100,000 deep (RecursionError), entries of the wrong type, one larger
than any export (sparse here), and one that is not JSON at all."""

EXPECT = {
    "deep": {"error": "not a progress file"},
    "typed": {"error": "not a progress file this grader reads"},
    "vast": {"error": "over the 5,242,880 bytes"},
    "noise": {"error": "not a progress file: not JSON"},
}


def build(folder, course, slug):
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "typed.json").write_text(
        '{"format": "loopcraft-progress", "version": 1, "entries": {"loopcraft:code:build-an-agent/x": 42}}'
    )
    with open(folder / "vast.json", "wb") as big:
        big.truncate(6 * 1024 * 1024)
    (folder / "noise.json").write_bytes(b"\x00\x01 not json")
