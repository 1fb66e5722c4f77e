# Wrong: retries a blip for as long as it comes back, never counting against max_retries.
# Blips are retried; information is not.
RETRYABLE = {"timeout", "rate_limit", "parse"}


def run_agent(goal, script, faults=None, max_retries=2, max_steps=5):
    model = make_model(script)
    run_tool = make_tools(faults)
    transcript = [{"role": "user", "content": goal}]
    retries = []

    for step in range(1, max_steps + 1):
        action = model(transcript)
        if action["tool"] == "finish":
            return {"status": "ok", "answer": action["args"]["answer"], "steps": step,
                    "retries": retries}

        name, args = action["tool"], action["args"]
        result = run_tool(name, args)
        while result.get("error") in RETRYABLE:
            retries.append(f"{name}: {result['error']}")
            result = run_tool(name, args)
        transcript.append({"role": "tool", "name": name, "args": args, "content": result})

    return {"status": "max_steps", "answer": None, "steps": max_steps, "retries": retries}
