# Wrong: lists `observation_cut` once, however many replies were cut.
FINISH_NUDGE = "This is your last step. You may finish now: call finish with your best answer."
NO_EVIDENCE = "error: finish rejected, no tool has run yet. Use a tool to check the facts, then finish."


def run_agent(task, script, max_steps=6):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []
    guards = []

    for step in range(1, max_steps + 1):
        if step == max_steps:
            messages.append({"role": "user", "content": FINISH_NUDGE})
            guards.append("finish_nudge")

        reply = llm(messages)
        cut = reply.find("Observation:")
        if cut != -1:
            reply = reply[:cut]
            if "observation_cut" not in guards:
                guards.append("observation_cut")
        messages.append({"role": "assistant", "content": reply})

        try:
            call = parse_call(reply)
        except ValueError as e:
            messages.append({"role": "user",
                             "content": f"error: {e}. Reply with one JSON tool call and nothing else."})
            continue

        if call["tool"] == "finish":
            if not tools_called:
                messages.append({"role": "user", "content": NO_EVIDENCE})
                guards.append("no_evidence")
                continue
            return {"answer": call["args"]["answer"], "steps": step, "tools_called": tools_called,
                    "guards": guards, "stop_reason": "final_answer"}

        tools_called.append(call["tool"])
        messages.append({"role": "tool", "content": dispatch(call)})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "guards": guards, "stop_reason": "max_steps"}
