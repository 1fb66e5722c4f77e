"""Valid arguments of run_agent(goal, script, projections, max_chars=200, max_steps=5): limits at and around the
sizes of the results, and projections of fields a result has or lacks."""

from agent_scenarios import steps
from weather_scenarios import TOOLS, goal, script

FIELDS = ["place", "temp_c", "conditions", "lat", "name", "error", "humidity_pct", "missing"]
# At and around the sizes of the results (json.dumps): Paris's weather 38, Lyon's 37, Paris's geocode 44,
# Lyon's 43; an error is kept whole whatever its size.
LIMITS = {
    "": 200,
    "a limit of a result's exact size": 38,
    "a limit one below a result's size": 37,
    "a limit of a geocode's exact size": 44,
    "a limit one below a geocode's size": 43,
    "a small limit": 10,
    "a limit of 0": 0,
}


def scenario(pick):
    projections = {tool: pick.list(lambda p: p.choice(FIELDS), 0, 4) for tool in pick.sample(TOOLS)}
    args = {"goal": goal(pick), "script": script(pick), "projections": projections}
    if pick.bool():
        args["max_chars"] = pick.choice(LIMITS)
    return args | steps(pick, "max_steps", 1, 6)
