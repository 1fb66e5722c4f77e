# The sandbox (SYSTEM_PROMPT, TOOLS, make_llm, parse_tool_call, dispatch) is
# loaded before this file: call those names directly.


def run_agent(task, script, max_steps=8):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []
    errors = 0

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

        tools_called.append(call["tool"])
        result = dispatch(call)
        messages.append({"role": "tool", "content": result})
        if result.startswith("error:"):
            errors += 1

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "errors": errors, "stop_reason": "max_steps"}


# TODO:
# - count the identical tool calls in a row (same tool, equal arguments);
#   a parse error in between does not break the row, a different call does
# - the first repeat, the third identical call in a row: do not run it; send
#   the nudge of the task as a "user" message instead
# - any later repeat in the run: stop with "stop_reason": "repeated_action"
