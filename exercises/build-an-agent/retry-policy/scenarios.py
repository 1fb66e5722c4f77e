"""Valid arguments of run_agent(goal, script, faults=None, max_retries=2, max_steps=5)."""

from agent_scenarios import steps
from weather_scenarios import faults, goal, script


def scenario(pick):
    args = {"goal": goal(pick), "script": script(pick)}
    return args | faults(pick) | steps(pick, "max_retries", 0, 3) | steps(pick, "max_steps", 1, 6)
