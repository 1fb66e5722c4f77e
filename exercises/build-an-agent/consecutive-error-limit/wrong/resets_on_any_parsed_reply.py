def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []
    errors = 0
    consecutive = 0

    for step in range(1, max_steps + 1):
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})

        try:
            call = parse_tool_call(reply)
        except ValueError as e:
            errors += 1
            consecutive += 1
            messages.append({
                "role": "user",
                "content": f"error: could not parse your tool call ({e}). "
                           "Reply with a JSON tool call or a final answer.",
            })
        else:
            if call is None:
                return {"answer": reply, "steps": step, "tools_called": tools_called,
                        "errors": errors, "stop_reason": "final_answer"}
            consecutive = 0
            tools_called.append(call["tool"])
            result = dispatch(call)
            messages.append({"role": "tool", "content": result})
            if result.startswith("error:"):
                errors += 1
                consecutive += 1
            else:
                consecutive = 0

        if consecutive >= max_consecutive_errors:
            return {"answer": None, "steps": step, "tools_called": tools_called,
                    "errors": errors, "stop_reason": "too_many_errors"}

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "errors": errors, "stop_reason": "max_steps"}
