# The sandbox (SYSTEM_PROMPT, TOOLS, make_llm, parse_tool_call, dispatch) is
# loaded before this file: call those names directly.


def run_agent(task, script, max_steps=5):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []

    for step in range(1, max_steps + 1):
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})

        call = parse_tool_call(reply)  # crashes with ValueError on broken JSON
        if call is None:
            # Not a tool call: this is the final answer.
            return {"answer": reply, "steps": step, "tools_called": tools_called,
                    "stop_reason": "final_answer"}

        tools_called.append(call["tool"])
        messages.append({"role": "tool", "content": dispatch(call)})

    # Out of steps without a final answer.
    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "stop_reason": "max_steps"}


# TODO:
# - catch the ValueError from parse_tool_call and send the error back to the
#   model as a "user" message (exact wording in the task), then go on to the
#   next step
# - count errors: parse errors and tool results that start with "error:"
# - add "errors" (the total) to every dict you return
