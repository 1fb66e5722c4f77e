"""Valid arguments of run_agent(goal, script, budgets, default_budget=30, faults=None, max_steps=5): budgets at
and around the tools' costs, and calls that hang, fail or take exactly their budget."""

from agent_scenarios import steps
from weather_scenarios import TOOLS, faults, goal, script

SECONDS = {"": 30, "a budget of a call's cost": 1.5, "a short budget": 0.5, "a long budget": 60, "a tiny budget": 0.25, "a budget of zero": 0}
DURATIONS = {"": 3600, "a call that takes its budget exactly": 30, "a slow call": 4, "a fast call": 0.5, "a call of no time": 0}


def scenario(pick):
    budgets = {tool: pick.choice(SECONDS) for tool in pick.sample(TOOLS)}
    args = {"goal": goal(pick), "script": script(pick), "budgets": budgets}
    if pick.bool():
        args["default_budget"] = pick.choice(SECONDS)
    return args | faults(pick, DURATIONS) | steps(pick, "max_steps", 1, 6)
