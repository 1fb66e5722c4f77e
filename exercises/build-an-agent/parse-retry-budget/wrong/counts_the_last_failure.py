def run_agent(task, script, max_steps=5, max_parse_retries=2):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []
    steps = 0
    parse_retries = 0

    while steps < max_steps:
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})

        try:
            call = parse_tool_call(reply)
        except ValueError as e:
            if parse_retries == max_parse_retries:
                return {"answer": None, "steps": steps, "tools_called": tools_called,
                        "parse_retries": parse_retries + 1, "stop_reason": "parse_budget_exhausted"}
            parse_retries += 1
            messages.append({
                "role": "user",
                "content": f"error: could not parse your tool call ({e}). "
                           "Reply with a JSON tool call or a final answer.",
            })
            continue

        steps += 1
        if call is None:
            return {"answer": reply, "steps": steps, "tools_called": tools_called,
                    "parse_retries": parse_retries, "stop_reason": "final_answer"}
        tools_called.append(call["tool"])
        messages.append({"role": "tool", "content": dispatch(call)})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "parse_retries": parse_retries, "stop_reason": "max_steps"}
