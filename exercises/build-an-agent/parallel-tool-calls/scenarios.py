"""Valid arguments of run_agent(task, script, max_steps=5): replies that are one call, a batch of calls (some of
them bad), or not a turn at all."""

import json

from action_scenarios import bad_call, finish, good_call, task, write
from agent_scenarios import steps


def item(pick):
    return bad_call(pick) if pick.int(0, 3) == 3 else good_call(pick)


def reply(pick):
    kind = pick.choice(
        {
            "": "call",
            "a batch": "batch",
            "an empty batch": "empty",
            "a turn that is neither an object nor a list": "scalar",
            "a call followed by prose": "prose",
            "prose": "text",
        }
    )
    if kind == "call":
        return write(item(pick), pick)
    if kind == "batch":
        return write(pick.list(item, 1, 4), pick)
    if kind == "empty":
        return "[]"
    if kind == "scalar":
        return pick.choice(['"get_order"', "17", "null", "true"])
    if kind == "prose":
        return json.dumps(good_call(pick)) + "\nRefund done, I also closed the ticket."
    return pick.choice(["I will look into it.", "Sure! " + json.dumps(finish(pick))])


def scenario(pick):
    return {"task": task(pick), "script": pick.list(reply, 0, 6)} | steps(pick)
