"""Building blocks for the scenarios of the challenges on agent_sandbox.py: tasks, and the replies a scripted
model may give (see docs/authoring.md, "Scenarios"). Every pool lists its options simplest first, each with a
label that names what a case made from it exercises."""

import json

TASKS = {
    "a task": "Add 2 and 3.",
    "an empty task": "",
    "a task padded with spaces": "  Weather in Oslo?  ",
    "a non-ASCII task": "Météo à Zürich ☀, s'il vous plaît",
}

# (tool, arguments) of calls that parse; the label says what dispatch makes of them.
CALLS = {
    "a tool call": ("add", {"a": 2, "b": 3}),
    "a call of word_count": ("word_count", {"text": "to be or not"}),
    "a call of get_weather": ("get_weather", {"city": "Oslo"}),
    "a failing tool (search_web)": ("search_web", {"query": "news"}),
    "another failing search": ("search_web", {"query": "flights"}),
    "an unknown city": ("get_weather", {"city": "Atlantis"}),
    "an unknown tool": ("multiply", {"a": 2, "b": 3}),
    "a missing argument": ("add", {"a": 1}),
    "an argument of the wrong type": ("add", {"a": "1", "b": 2}),
    "an unexpected argument": ("word_count", {"text": "hi", "lang": "en"}),
    "a city padded with spaces": ("get_weather", {"city": "  paris "}),
    "non-ASCII text": ("word_count", {"text": "naïve café ☕ ok"}),
    "an empty text": ("word_count", {"text": ""}),
    "float arguments": ("add", {"a": 1.5, "b": 1.5}),
    "arguments in another order": ("add", {"b": 3, "a": 2}),
    "an empty tool name": ("", {}),
}

# How a call is written: the same call, parsed, whatever the layout.
LAYOUTS = {
    "": '{{"tool": {tool}, "arguments": {arguments}}}',
    "keys in another order": '{{"arguments": {arguments}, "tool": {tool}}}',
    "a call padded with whitespace": '\n  {{"tool": {tool}, "arguments": {arguments}}}  \n',
    "a call without spaces": '{{"tool":{tool},"arguments":{arguments}}}',
}

BROKEN = {
    "a trailing comma": '{"tool": "add", "arguments": {"a": 1, "b": 2},}',
    "a missing brace": '{"tool": "add", "arguments": {"a": 1, "b": 2}',
    "single quotes": "{'tool': 'add', 'arguments': {'a': 1, 'b': 2}}",
    'a call without a "tool" key': '{"name": "add", "arguments": {"a": 2, "b": 2}}',
    "a tool that is not a string": '{"tool": 7, "arguments": {}}',
    'a call without "arguments"': '{"tool": "add"}',
    "arguments that are not an object": '{"tool": "add", "arguments": [1, 2]}',
    "a broken call after a newline": '\n{"tool": "word_count", "arguments": ',
    "an empty object": "{}",
}

# Final answers: the placeholders show what the loop sent the model (see make_llm).
ANSWERS = {
    "a final answer": "Done.",
    "an answer that repeats the tool result": "Result: {last_tool_result}",
    "an answer that repeats the feedback": "Feedback: {last_feedback}",
    "an answer that shows what the model was sent": "Seen: {roles}",
    "an answer that repeats the task": "Task: {task}",
    "an empty answer": "",
    "an answer padded with spaces": "  Done.  ",
    "a non-ASCII answer": "Fertig ✓ — 東京",
    "an answer that is a JSON list": "[1, 2]",
    "an answer with a call on its second line": 'Calling:\n{"tool": "add", "arguments": {"a": 1, "b": 1}}',
}


def task(pick):
    return pick.choice(TASKS)


def write_call(tool, arguments, layout):
    compact = layout == LAYOUTS["a call without spaces"]
    dumped = json.dumps(arguments, ensure_ascii=False, separators=(",", ":") if compact else None)
    return layout.format(tool=json.dumps(tool, ensure_ascii=False), arguments=dumped)


def tool_call(pick, calls=CALLS):
    tool, arguments = pick.choice(calls)
    return write_call(tool, arguments, pick.choice(LAYOUTS))


def broken_reply(pick):
    return pick.choice(BROKEN)


def final_answer(pick, answers=ANSWERS):
    return pick.choice(answers)


def reply(pick, broken=True, answers=ANSWERS):
    """Any reply a model may give: a final answer (one of `answers`), a tool call, or (unless `broken` is False)
    one that does not parse."""
    kinds = {"": lambda p: final_answer(p, answers), "a tool call": tool_call}
    if broken:
        kinds["a reply that does not parse"] = broken_reply
    return pick.choice(kinds)(pick)


def script(pick, broken=True, longest=7, answers=ANSWERS):
    return pick.list(lambda p: reply(p, broken, answers), 0, longest)


def script_with_repeats(pick, longest=9):
    """Replies among which a call often repeats the one before: as written, or written another way."""
    replies, previous = [], None
    for _ in range(pick.int(0, longest)):
        how = pick.choice({"": "new", "the same call again": "same", "the same call written another way": "other"})
        if previous is not None and how != "new":
            tool, arguments, layout = previous
            if how == "other":
                layout = pick.choice(LAYOUTS)
                arguments = dict(reversed(arguments.items())) if pick.bool() else arguments
            replies.append(write_call(tool, arguments, layout))
            continue
        kind = pick.choice({"": "call", "a final answer": "answer", "a reply that does not parse": "broken"})
        if kind == "call":
            tool, arguments = pick.choice(CALLS)
            layout = pick.choice(LAYOUTS)
            previous = (tool, arguments, layout)
            replies.append(write_call(tool, arguments, layout))
        else:
            replies.append(final_answer(pick) if kind == "answer" else broken_reply(pick))
    return replies


def steps(pick, name="max_steps", lo=1, hi=7):
    """{name: n} or {} (the default), for an optional limit."""
    return {name: pick.int(lo, hi)} if pick.bool() else {}
