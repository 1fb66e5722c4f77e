"""`python -m grader`: the host's entry (Pyodide never loads this file); the command line lives in loopcraft.cli."""

import sys

from loopcraft.cli import main

sys.exit(main())
