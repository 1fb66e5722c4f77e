# Wrong: counts the errors afterwards, from every message that starts with `error:`, the model's own replies too.
def run_agent(task, script, max_steps=5):
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
            messages.append({
                "role": "user",
                "content": f"error: could not parse your tool call ({e}). "
                           "Reply with a JSON tool call or a final answer.",
            })
            continue

        if call is None:
            return {"answer": reply, "steps": step, "tools_called": tools_called,
                    "errors": counted(messages), "stop_reason": "final_answer"}

        tools_called.append(call["tool"])
        result = dispatch(call)
        messages.append({"role": "tool", "content": result})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "errors": counted(messages), "stop_reason": "max_steps"}


def counted(messages):
    return sum(1 for message in messages if message["content"].startswith("error:"))
