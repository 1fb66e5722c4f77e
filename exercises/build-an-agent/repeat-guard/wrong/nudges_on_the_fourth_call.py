# Wrong: counts the repeats of a call instead of the calls, so it nudges on the third repeat, the fourth identical call in a row.
def run_agent(task, script, max_steps=8):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []
    errors = 0
    previous = None   # the last reply that parsed as a tool call
    repeats = 0       # how many times in a row the call was the one before
    nudged = False    # one nudge per run

    for step in range(1, max_steps + 1):
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})

        try:
            call = parse_tool_call(reply)
        except ValueError as e:
            errors += 1
            messages.append({
                "role": "user",
                "content": f"error: could not parse your tool call ({e}). "
                           "Reply with a JSON tool call or a final answer.",
            })
            continue

        if call is None:
            return {"answer": reply, "steps": step, "tools_called": tools_called,
                    "errors": errors, "stop_reason": "final_answer"}

        repeats = repeats + 1 if call == previous else 0  # same tool and equal arguments
        previous = call
        if repeats >= 3:  # the third repeat
            if nudged:
                return {"answer": None, "steps": step, "tools_called": tools_called,
                        "errors": errors, "stop_reason": "repeated_action"}
            nudged = True
            messages.append({
                "role": "user",
                "content": f"You already called {call['tool']} with these arguments. "
                           "Use the result you have, call a different tool, or give your final answer.",
            })
            continue

        tools_called.append(call["tool"])
        result = dispatch(call)
        messages.append({"role": "tool", "content": result})
        if result.startswith("error:"):
            errors += 1

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "errors": errors, "stop_reason": "max_steps"}
