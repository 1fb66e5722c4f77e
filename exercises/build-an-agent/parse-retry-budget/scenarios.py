"""Valid arguments of run_agent(task, script, max_steps=5, max_parse_retries=2)."""

from agent_scenarios import script, steps, task


def scenario(pick):
    args = {"task": task(pick), "script": script(pick, longest=9)}
    return args | steps(pick) | steps(pick, "max_parse_retries", 0, 3)
