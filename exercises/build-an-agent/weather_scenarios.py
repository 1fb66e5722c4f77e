"""Building blocks for the scenarios of the challenges on weather_sandbox.py: goals, the actions a scripted
model may take, and faults (see docs/authoring.md, "Scenarios"). Every pool lists its options simplest first,
each with a label that names what a case made from it exercises."""

GOALS = {
    "a goal": "Weather in Paris?",
    "a goal about Lyon": "Is it warm in Lyon today?",
    "a goal about an unknown city": "Weather in Atlantis?",
    "an empty goal": "",
    "a non-ASCII goal": "Météo à Zürich ☀",
}

CITIES = {
    "": "Paris",
    "Lyon": "Lyon",
    "a city in lower case": "lyon",
    "a city padded with spaces": "  Paris ",
    "an unknown city": "Atlantis",
    "a non-ASCII city": "Zürich",
    "an empty city": "",
}

PLACES = {
    "": {"lat": 48.86, "lon": 2.35},
    "Lyon's coordinates": {"lat": 45.76, "lon": 4.84},
    "coordinates with no forecast": {"lat": 0.0, "lon": 0.0},
    "coordinates that are not numbers": {"lat": "north", "lon": 2.35},
}

# Finish answers: the placeholders show what the loop put in the transcript (see make_model).
ANSWERS = {
    "": "Done.",
    "an answer that repeats the last result": "{last_result}",
    "an answer that repeats the last call": "{last_call}",
    "an answer that shows what the model was sent": "{roles}",
    "an empty answer": "",
    "a non-ASCII answer": "Fini ✓ — 東京",
}

FAULT_KINDS = {
    "": None,
    "a timeout": "timeout",
    "a rate limit": "rate_limit",
    "an unreadable reply": "parse",
    "an error of an unknown kind": "server_error",
    "an error of an empty kind": "",
    "an error kind padded with spaces": " rate_limit ",
}

TOOLS = ["geocode", "weather", "weather_report"]


def goal(pick):
    return pick.choice(GOALS)


def finish(pick):
    return {"tool": "finish", "args": {"answer": pick.choice(ANSWERS)}}


def action(pick, finishing=True):
    """An action of the model: a tool call (known or not, good arguments or not), or a finish one time in four
    when `finishing`."""
    kind = pick.choice(
        {
            "": "geocode",
            "a weather call": "weather",
            "a weather report": "weather_report",
            "a finish": "finish",
            "an unknown tool": "unknown",
            "bad arguments": "bad",
        }
    )
    if kind == "finish" and finishing:
        return finish(pick)
    if kind in ("geocode", "finish"):
        return {"tool": "geocode", "args": {"city": pick.choice(CITIES)}}
    if kind in ("weather", "weather_report"):
        return {"tool": kind, "args": dict(pick.choice(PLACES))}
    if kind == "unknown":
        return {"tool": "forecast", "args": {"city": "Paris"}}
    return {"tool": "geocode", "args": {"town": "Paris"}}


def script(pick, longest=6):
    return pick.list(action, 0, longest)


def fault(pick, durations=(), kinds=FAULT_KINDS):
    """One call's fault: None (it behaves), a kind of error (of `kinds`), or (from `durations`) how long it takes."""
    if durations and pick.bool():
        return pick.choice(durations)
    return pick.choice(kinds)


def faults(pick, durations=(), kinds=FAULT_KINDS):
    """{tool: [fault, ...]} for some tools, in any order, or {} (given or left out: `None` is the default)."""
    chosen = {tool: pick.list(lambda p: fault(p, durations, kinds), 1, 4) for tool in pick.sample(TOOLS)}
    return {"faults": chosen} if chosen or pick.bool() else {}
