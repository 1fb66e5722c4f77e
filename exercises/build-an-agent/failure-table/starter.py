# The sandbox (SYSTEM_PROMPT, TOOLS, make_llm, check_call, parse_call,
# dispatch) is loaded before this file: call those names directly.


def run_agent(task, script, max_steps=6):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []
    guards = []

    for step in range(1, max_steps + 1):
        # TODO (never finishes): before the last step's model call, tell the
        # model it may finish now.
        reply = llm(messages)
        # TODO (invented observation): cut the reply at the first
        # "Observation:", as a stop sequence would.
        messages.append({"role": "assistant", "content": reply})

        try:
            call = parse_call(reply)
        except ValueError as e:
            messages.append({"role": "user",
                             "content": f"error: {e}. Reply with one JSON tool call and nothing else."})
            continue

        if call["tool"] == "finish":
            # TODO (finishes too early): no tool has run yet? Reject the finish.
            return {"answer": call["args"]["answer"], "steps": step, "tools_called": tools_called,
                    "guards": guards, "stop_reason": "final_answer"}

        tools_called.append(call["tool"])
        messages.append({"role": "tool", "content": dispatch(call)})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "guards": guards, "stop_reason": "max_steps"}
