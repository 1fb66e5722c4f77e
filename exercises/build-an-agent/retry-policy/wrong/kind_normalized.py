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
        for _ in range(max_retries):  # a fresh allowance for every action
            kind = result.get("error")
            if str(kind).strip().lower() not in RETRYABLE:
                break
            retries.append(f"{name}: {kind}")
            result = run_tool(name, args)
        transcript.append({"role": "tool", "name": name, "args": args, "content": result})

    return {"status": "max_steps", "answer": None, "steps": max_steps, "retries": retries}
