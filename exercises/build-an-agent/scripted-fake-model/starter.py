# The weather sandbox (run_loop, CITIES, FORECASTS, ...) is loaded before
# this file: call those names directly.
import re


def extract_city(goal):
    """The city the goal asks about (rules in the task)."""
    # TODO
    return "unknown"


def last_result(transcript, name):
    """The content of the latest "tool" event of tool `name`, or None."""
    # TODO
    return None


def policy(goal, transcript):
    """The next action, {"tool": ..., "args": {...}}, decided from the transcript."""
    # TODO: the five rules of the task, in order
    return {"tool": "finish", "args": {"answer": "cannot: not written yet"}}


# The cases call run_agent: it runs the sandbox's loop with your policy.
# Leave it as it is.
def run_agent(goal, faults=None, max_steps=5):
    return run_loop(goal, policy, faults=faults, max_steps=max_steps)
