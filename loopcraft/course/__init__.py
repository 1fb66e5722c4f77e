"""The course: its model (course.py), loading and checking the files authors write, and the facts every wing
reads (a case as the interpreter and the judge take it, the hidden cases' salt, the project, the build cache).
The lowest wing: it imports nothing of the others.
"""
