"""esbuild's bundles of the front end, kept in the build cache.

A bundle's key hashes every file esbuild read to make it (listed in its metafile, which is kept in the cache by
entry and arguments), esbuild's version and npm's record of what is installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from loopcraft.course.cache import BuildCache
from loopcraft.course.errors import BuildError

# Inputs of every bundle besides the files esbuild reads: its version, and npm's record of what is installed
# (a package.json it consults can change which file an import resolves to).
BUNDLER_FILES = ["node_modules/esbuild/package.json", "node_modules/.package-lock.json"]


def bundle(root: Path, cache: BuildCache, entry: str, extra: list[str]) -> bytes:
    """esbuild's bundle of frontend/src/`entry` with the arguments `extra`."""
    args = json.dumps([entry, extra])
    inputs_key = cache.key("bundle-inputs", args)
    inputs = cache.get_json("bundle-inputs", inputs_key)
    if inputs is not None and (output := cache.get("bundle", _bundle_key(root, cache, args, inputs))) is not None:
        return output
    started = time.time_ns()
    with tempfile.TemporaryDirectory() as tmp:
        outfile, metafile = Path(tmp) / entry, Path(tmp) / "meta.json"
        warned = _esbuild(root, root / "frontend/src" / entry, outfile, [*extra, f"--metafile={metafile}"])
        output = outfile.read_bytes()
        # Names in <> are esbuild's own, e.g. <define:__PRECACHE__> for a value given in `extra`, part of the key.
        inputs = sorted(
            name for name in json.loads(metafile.read_text(encoding="utf-8"))["inputs"] if not name.startswith("<")
        )
    # Not kept: a bundle with warnings, so they show on every build; and one whose inputs changed while esbuild
    # ran (or a second before: file times may be coarse), as it may not be made from what the key would hash.
    recent = started - 1_000_000_000
    if not warned and all(_mtime_ns(root / name) < recent for name in inputs):
        cache.put_json("bundle-inputs", inputs_key, inputs)
        cache.put("bundle", _bundle_key(root, cache, args, inputs), output)
    return output


def _bundle_key(root: Path, cache: BuildCache, args: str, inputs: list[str]) -> str:
    parts: list[str | bytes] = [args]
    for name in [*inputs, *BUNDLER_FILES]:
        try:
            parts += [name, b"+" + (root / name).read_bytes()]
        except OSError:
            parts += [name, b"-"]  # missing: a bundle made while it existed must not be used
    return cache.key("bundle", *parts)


def _mtime_ns(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return time.time_ns()  # gone: as good as changed


def _esbuild(root: Path, entry: Path, outfile: Path, extra: list[str]) -> bool:
    """Run esbuild; True if it printed warnings (passed on to stderr)."""
    command = [
        str(root / "node_modules/.bin/esbuild"),
        str(entry.relative_to(root)),
        "--bundle",
        "--format=esm",
        "--minify",
        f"--outfile={outfile}",
        "--log-level=warning",
        *extra,
    ]
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    except OSError as exc:
        raise BuildError(f"cannot run esbuild: {exc}") from exc
    if done.returncode != 0:
        raise BuildError(f"esbuild failed on {entry.relative_to(root)}:\n{done.stderr.strip()}")
    sys.stderr.write(done.stderr)  # warnings
    return bool(done.stderr.strip())
