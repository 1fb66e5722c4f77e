#!/usr/bin/env python3
"""The authors' commands, run from the project's folder: `python build.py ...` is `loopcraft ...` (the project's one
command, loopcraft/command.py); the commands themselves are loopcraft/author.py's."""

import sys

from loopcraft.author import main

if __name__ == "__main__":
    sys.exit(main())
