"""Loopcraft's grader package: standard library only, so the same files run in Pyodide (browser, Node) and CPython.

`execute.run_case` runs learner code inside the learner's interpreter and hands back canonical JSON; `judge`
turns outcomes into verdicts outside it (host CPython: loopcraft.grading.grade, the one grading core). Nothing
here imports the host side; only `__main__.py`, the command line's entry, hands over to loopcraft.cli.
"""
