"""Progress of the authors' long work (verifying the solutions, running mutants and generated scenarios), on
stderr: a bar where stderr is a terminal, nothing where it is not (a log, a pipe, a test's capture), as tqdm
decides with `disable=None`. Cleared when done, so that what `check` and `build` print stays as it was."""

from __future__ import annotations

import sys

from tqdm import tqdm


def progress(total: int, what: str, unit: str) -> tqdm:
    """A bar of `total` `unit`s of `what` (a context manager; `.update()` one done)."""
    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, disable=None, dynamic_ncols=True, leave=False)
