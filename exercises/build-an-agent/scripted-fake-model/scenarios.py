"""Valid arguments of run_agent(goal, faults=None, max_steps=5): goals that name a city, or a word after "in",
or neither, or several places in any order, and faults of every kind."""

from agent_scenarios import steps
from weather_scenarios import FAULT_KINDS, faults

PLACES = {
    "": "Paris",
    "Lyon": "Lyon",
    "a city in lower case": "paris",
    "a city in capitals": "LYON",
    "an unknown city": "Atlantis",
    "a non-ASCII word": "Zürich",
    "a word with digits": "Area51",
}
# How the places a goal names are joined, when it names more than one.
JOINS = {"": " or in ", "places after a comma": ", ", "places joined by 'and'": " and "}
# The refusal spells out every underscore of an error's kind, so a kind of three words is one of its faults.
KINDS = FAULT_KINDS | {"an error kind of three words": "rate_limit_exceeded"}
# policy decides from the transcript alone, so a second run gives the same actions (the sandbox's clock, which
# outlives a run, shows in none of them).
CALL_TWICE = True
PATTERNS = {
    "": "Weather in {}?",
    "a word ending in 'in' first": "Is there rain in {}?",
    "'in' inside a word": "Weather inside {}",
    "'in' in capitals": "Weather IN {}",
    "no 'in'": "{} weather",
    "'in' at the end": "What is {} in",
    "'in' twice": "in in {}",
}


def scenario(pick):
    # Which places, and in which order: a goal may name Lyon before Paris, which CITIES lists the other way round.
    places = pick.sample(PLACES, 1, 3)
    if len(places) > 1:
        pick.label("places named in the order " + ", ".join(places))
    named = pick.choice(JOINS).join(places) if len(places) > 1 else places[0]
    goal = pick.choice(PATTERNS).format(named)
    return {"goal": goal} | faults(pick, kinds=KINDS) | steps(pick, "max_steps", 1, 6)
