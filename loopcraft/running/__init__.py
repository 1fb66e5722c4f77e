"""Running code: the runner port (runners.py), Pyodide under Node (pyodide.py), the judge for outcomes made
outside it (judging.py) and the one grading core (grading.py). Imports the course wing only.
"""
