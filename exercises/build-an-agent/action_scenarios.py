"""Building blocks for the scenarios of the challenges on action_sandbox.py: tasks, and the replies a scripted
model may give under the action contract, one call or a batch (see docs/authoring.md, "Scenarios"). Every pool
lists its options simplest first, each with a label that names what a case made from it exercises."""

import json

TASKS = {
    "a task": "Refund order 23.",
    "an empty task": "",
    "a non-ASCII task": "Remboursez la commande 17 — merci ☺",
}

# Finish answers: the placeholders show what the loop sent the model (see make_llm).
ANSWERS = {
    "": "Done.",
    "an answer that repeats the tool result": "{last_tool_result}",
    "an answer that repeats the feedback": "{last_feedback}",
    "an answer that shows what the model was sent": "{roles}",
    "an answer that repeats the model's last reply": "{last_reply}",
    "an answer that repeats the task": "{task}",
    "an empty answer": "",
    "a non-ASCII answer": "Remboursé ✓ — 東京",
}

# Calls that check out (check_call returns None); the label says what running them does.
CALLS = {
    "a call": {"tool": "get_order", "args": {"order_id": 17}},
    "a refund": {"tool": "refund", "args": {"order_id": 23}},
    "the list of refunds": {"tool": "list_refunds", "args": {}},
    "an unknown order": {"tool": "get_order", "args": {"order_id": 99}},
    "a refund of order 42": {"tool": "refund", "args": {"order_id": 42}},
    "a refund of an unknown order": {"tool": "refund", "args": {"order_id": 99}},
    "a call with its keys in another order": {"args": {"order_id": 23}, "tool": "get_order"},
}

# JSON values that are not valid calls (check_call returns a message).
BAD_CALLS = {
    "an unknown tool": {"tool": "delete_order", "args": {"order_id": 17}},
    "an order id that is a string": {"tool": "get_order", "args": {"order_id": "17"}},
    "a boolean order id": {"tool": "refund", "args": {"order_id": True}},
    "a missing argument": {"tool": "refund", "args": {}},
    "an extra key": {"tool": "list_refunds", "args": {}, "why": "audit"},
    "a call without args": {"tool": "list_refunds"},
    "a number, not a call": 7,
    "a string, not a call": "get_order",
    "null, not a call": None,
    "a list inside the list": [{"tool": "list_refunds", "args": {}}],
}


def task(pick):
    return pick.choice(TASKS)


def finish(pick):
    return {"tool": "finish", "args": {"answer": pick.choice(ANSWERS)}}


def good_call(pick, finishing=True):
    """A valid call; a finish one time in three when `finishing`."""
    if finishing and pick.int(0, 2) == 2:
        return finish(pick)
    return pick.choice(CALLS)


def bad_call(pick):
    return pick.choice(BAD_CALLS)


def write(value, pick):
    """A JSON value as a model writes it: plain, or with whitespace around (json.loads takes both)."""
    layout = pick.choice({"": "{}", "a reply padded with whitespace": "\n  {}  \n", "a non-ASCII reply": "{}"})
    return layout.format(json.dumps(value, ensure_ascii="non-ASCII" not in layout))
