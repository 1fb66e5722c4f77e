# The weather sandbox (make_model, make_tools, clock, TOOLS, COST_S, ...) is
# loaded before this file: call those names directly.


def run_agent(goal, script, budgets, default_budget=30, faults=None, max_steps=5):
    model = make_model(script)
    run_tool = make_tools(faults)
    transcript = [{"role": "user", "content": goal}]

    for step in range(1, max_steps + 1):
        action = model(transcript)
        if action["tool"] == "finish":
            return {"status": "ok", "answer": action["args"]["answer"], "steps": step}

        result = run_tool(action["tool"], action["args"])  # may hang for an hour
        transcript.append({"role": "tool", "name": action["tool"],
                           "args": action["args"], "content": result})

    return {"status": "max_steps", "answer": None, "steps": max_steps}


# TODO:
# - give every call a time budget: budgets[name], or default_budget for a
#   tool that budgets does not list; pass it to run_tool as timeout
# - when run_tool raises TimeoutError, the result the model sees is
#   {"error": "timeout", "tool": name, "budget_s": budget}; go on with the loop
# - log every call in "calls": {"tool", "seconds", "outcome"}, with seconds
#   measured on clock(), and add "calls" to every dict you return
