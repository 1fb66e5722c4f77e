"""Valid arguments of run_agent(task, script, max_steps=8): calls often repeat the one before."""

from agent_scenarios import script_with_repeats, steps, task


def scenario(pick):
    return {"task": task(pick), "script": script_with_repeats(pick)} | steps(pick, "max_steps", 1, 9)
