"""Valid arguments of run_agent(task, script, max_steps=5)."""

from agent_scenarios import script, steps, task


def scenario(pick):
    return {"task": task(pick), "script": script(pick)} | steps(pick)
