# Looks for the host in the environment: nothing of the machine's paths is in it.
# expect-status: fail
# expect-output-ends: no host path
import os


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    found = [f"{k}={v}" for k, v in os.environ.items() if "node" in v or "/work" in v or "frontend" in v]
    print(found or "no host path", end="")
    return {}
