# Wrong: logs a result as an error only when its `error` is not empty.
def run_agent(goal, script, budgets, default_budget=30, faults=None, max_steps=5):
    model = make_model(script)
    run_tool = make_tools(faults)
    transcript = [{"role": "user", "content": goal}]
    calls = []

    for step in range(1, max_steps + 1):
        action = model(transcript)
        if action["tool"] == "finish":
            return {"status": "ok", "answer": action["args"]["answer"], "steps": step,
                    "calls": calls}

        name, args = action["tool"], action["args"]
        budget = budgets.get(name, default_budget)
        started = clock()
        try:
            result = run_tool(name, args, timeout=budget)
            outcome = "error" if result.get("error") else "ok"
        except TimeoutError:
            # The runtime killed the call; the model is told, and the loop goes on.
            result = {"error": "timeout", "tool": name, "budget_s": budget}
            outcome = "timeout"
        calls.append({"tool": name, "seconds": clock() - started, "outcome": outcome})
        transcript.append({"role": "tool", "name": name, "args": args, "content": result})

    return {"status": "max_steps", "answer": None, "steps": max_steps, "calls": calls}
