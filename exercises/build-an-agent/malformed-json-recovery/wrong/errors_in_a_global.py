# Wrong: keeps the error count in a module-level variable, never reset, so a second run starts from the first's.
ERRORS = 0


def run_agent(task, script, max_steps=5):
    global ERRORS
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []

    for step in range(1, max_steps + 1):
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})

        try:
            call = parse_tool_call(reply)
        except ValueError as e:
            ERRORS += 1
            messages.append({
                "role": "user",
                "content": f"error: could not parse your tool call ({e}). "
                           "Reply with a JSON tool call or a final answer.",
            })
            continue

        if call is None:
            return {"answer": reply, "steps": step, "tools_called": tools_called,
                    "errors": ERRORS, "stop_reason": "final_answer"}

        tools_called.append(call["tool"])
        result = dispatch(call)
        messages.append({"role": "tool", "content": result})
        if result.startswith("error:"):
            ERRORS += 1

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "errors": ERRORS, "stop_reason": "max_steps"}
