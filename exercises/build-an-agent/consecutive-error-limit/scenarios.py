"""Valid arguments of run_agent(task, script, max_steps=5, max_consecutive_errors=3)."""

from agent_scenarios import script, steps, task


def scenario(pick):
    args = {"task": task(pick), "script": script(pick)}
    return args | steps(pick) | steps(pick, "max_consecutive_errors", 1, 4)
