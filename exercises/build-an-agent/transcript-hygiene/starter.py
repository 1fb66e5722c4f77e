# The weather sandbox (make_model, make_tools, clock, TOOLS, ...) is loaded
# before this file: call those names directly.
import json


def run_agent(goal, script, projections, max_chars=200, max_steps=5):
    model = make_model(script)
    run_tool = make_tools()
    transcript = [{"role": "user", "content": goal}]

    for step in range(1, max_steps + 1):
        action = model(transcript)
        if action["tool"] == "finish":
            return {"status": "ok", "answer": action["args"]["answer"], "steps": step}

        result = run_tool(action["tool"], action["args"])
        # Every result goes into the transcript whole, however large it is.
        transcript.append({"role": "tool", "name": action["tool"],
                           "args": action["args"], "content": result})

    return {"status": "max_steps", "answer": None, "steps": max_steps}


# TODO:
# - size(value) = len(json.dumps(value))
# - decide what goes into the transcript, by the four rules of the task:
#   the whole result, a projection (the fields in projections[name]) with
#   "omitted_keys", or the start of its JSON text with a marker
# - add "observations", "chars_full" and "chars_kept" to every dict you return
