# Wrong: keeps tools_called in a default argument, made once for every run, not once a run.
def run_agent(task, script, max_steps=5, tools_called=[]):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]

    for step in range(1, max_steps + 1):
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})

        call = parse_tool_call(reply)
        if call is None:
            return {"answer": reply, "steps": step, "tools_called": tools_called,
                    "stop_reason": "final_answer"}

        tools_called.append(call["tool"])
        messages.append({"role": "tool", "content": dispatch(call)})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "stop_reason": "max_steps"}
