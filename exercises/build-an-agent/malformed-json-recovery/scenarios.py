"""Valid arguments of run_agent(task, script, max_steps=5), each run twice in a row: the count of errors is the
run's own."""

from agent_scenarios import ANSWERS, script, steps, task

# A final answer that reads like an error is still an answer, not an error to count.
ANSWERS_TOO = ANSWERS | {"an answer that starts like an error": "error: I cannot help with that."}
# A second run starts from nothing: no count outlives a call (the agent sandbox keeps no state of its own).
CALL_TWICE = True


def scenario(pick):
    return {"task": task(pick), "script": script(pick, answers=ANSWERS_TOO)} | steps(pick)
