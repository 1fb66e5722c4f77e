# The weather sandbox (make_model, make_tools, clock, TOOLS, CITIES,
# FORECASTS) is loaded before this file: call those names directly.


def run_agent(goal, script, faults=None, max_retries=2, max_steps=5):
    model = make_model(script)
    run_tool = make_tools(faults)
    transcript = [{"role": "user", "content": goal}]

    for step in range(1, max_steps + 1):
        action = model(transcript)
        if action["tool"] == "finish":
            return {"status": "ok", "answer": action["args"]["answer"], "steps": step}

        result = run_tool(action["tool"], action["args"])
        transcript.append({"role": "tool", "name": action["tool"],
                           "args": action["args"], "content": result})

    return {"status": "max_steps", "answer": None, "steps": max_steps}


# TODO:
# - when a result is an error of kind "timeout", "rate_limit" or "parse",
#   call the same tool with the same arguments again, at most max_retries
#   more times for this action
# - never retry any other error: unknown_city is an answer, not a blip
# - only the last result goes into the transcript
# - add "retries" to every dict you return: one "tool: kind" string per retry
