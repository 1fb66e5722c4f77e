#!/usr/bin/env python3
"""`python build.py ...`, run from the project's folder: the one command tree (loopcraft/commands/), whose `build` it
runs when no command is named."""

import sys

from loopcraft.commands import main

if __name__ == "__main__":
    sys.exit(main(prog="build.py", default="build"))
