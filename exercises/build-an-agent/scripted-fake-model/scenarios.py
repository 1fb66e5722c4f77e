"""Valid arguments of run_agent(goal, faults=None, max_steps=5): goals that name a city, or a word after "in",
or neither, and faults of every kind."""

from agent_scenarios import steps
from weather_scenarios import faults

WORDS = {
    "": "Paris",
    "Lyon": "Lyon",
    "a city in lower case": "paris",
    "a city in capitals": "LYON",
    "an unknown city": "Atlantis",
    "a non-ASCII word": "Zürich",
    "a word with digits": "Area51",
}
PATTERNS = {
    "": "Weather in {}?",
    "a word ending in 'in' first": "Is there rain in {}?",
    "two places": "Weather in {} or in Lyon",
    "'in' inside a word": "Weather inside {}",
    "'in' in capitals": "Weather IN {}",
    "no 'in'": "{} weather",
    "'in' at the end": "What is {} in",
    "'in' twice": "in in {}",
}


def scenario(pick):
    goal = pick.choice(PATTERNS).format(pick.choice(WORDS))
    return {"goal": goal} | faults(pick) | steps(pick, "max_steps", 1, 6)
