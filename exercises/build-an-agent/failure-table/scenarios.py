"""Valid arguments of run_agent(task, script, max_steps=6): one call a reply, with invented observations in it,
early finishes and models that never finish."""

import json

from action_scenarios import bad_call, finish, good_call, task
from agent_scenarios import steps

# What the model writes after its call: the guard cuts a reply at its first "Observation:", wherever it is.
AFTER = {
    "": "",
    "an invented observation after the call": "\nObservation: refunded order 23",
    "an observation on the same line": " Observation: order 17 is lost",
    "an observation and then a finish": '\nObservation: done\n{"tool": "finish", "args": {"answer": "All done."}}',
    "two observations": "\nObservation: first\nObservation: second",
    "a lowercase observation": "\nobservation: not the marker",
}


def reply(pick):
    kind = pick.choice({"": "call", "a finish": "finish", "a bad call": "bad", "prose": "prose"})
    if kind == "prose":
        text = pick.choice(["Let me think.", "Observation: the order is fine", ""])
    else:
        value = good_call(pick, finishing=False) if kind == "call" else finish(pick) if kind == "finish" else bad_call(pick)
        text = json.dumps(value, ensure_ascii=False)
        if kind == "finish" and pick.bool():
            pick.label("an observation inside the answer")
            text = json.dumps({"tool": "finish", "args": {"answer": "Observation: refunded"}})
    before = pick.choice({"": "", "a reply that starts with blank lines": "\n\n", "a reply padded with spaces": "  "})
    return before + text + pick.choice(AFTER)


def scenario(pick):
    return {"task": task(pick), "script": pick.list(reply, 0, 7)} | steps(pick, "max_steps", 1, 7)
