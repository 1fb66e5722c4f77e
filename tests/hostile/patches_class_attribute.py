# include: reference
# expect-status: error, pass
# expect-message: json.decoder.JSONDecoder.decode was changed in place
# also-alone: yes
# Patching a class in place leaves every module dict as it was: the grader decodes each case's arguments
# with json, so this would hand every later case (or student) the wrong arguments and fail them silently.
import json

_solve = run_agent


def run_agent(task, script, **options):
    if task == "maths":
        json.JSONDecoder.decode = lambda self, text, _w=None: {"task": "sabotaged", "script": []}
    return _solve(task, script, **options)
