"""Loopcraft's grader package: standard library only, so the same files run in Pyodide (browser, Node) and CPython.

`execute.run_case` runs learner code inside the learner's interpreter and hands back canonical JSON; the one judge,
frontend/src/judge.js, turns outcomes into verdicts outside it, and `results` reads and writes them. Nothing
here imports the host side; only `__main__.py`, the command line's entry, hands over to loopcraft.commands.
"""
