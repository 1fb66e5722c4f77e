"""`python -m grader`: the host's entry (Pyodide never loads this file) to the one command tree, loopcraft/commands/,
whose `grade` it runs when no command is named (`python -m grader SLUG FILE`)."""

import sys

from loopcraft.commands import main

sys.exit(main(prog="python -m grader", default="grade"))
