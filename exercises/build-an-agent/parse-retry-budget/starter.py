# The sandbox (SYSTEM_PROMPT, TOOLS, make_llm, parse_tool_call, dispatch) is
# loaded before this file: call those names directly.


def run_agent(task, script, max_steps=5, max_parse_retries=2):
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
            # A reply that does not parse uses up a step here: change that.
            messages.append({
                "role": "user",
                "content": f"error: could not parse your tool call ({e}). "
                           "Reply with a JSON tool call or a final answer.",
            })
            continue

        if call is None:
            return {"answer": reply, "steps": step, "tools_called": tools_called,
                    "stop_reason": "final_answer"}
        tools_called.append(call["tool"])
        messages.append({"role": "tool", "content": dispatch(call)})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "stop_reason": "max_steps"}


# TODO:
# - count steps yourself: only a reply that parses (a tool call or a final
#   answer) is a step; keep asking while steps < max_steps
# - a reply that does not parse is a parse retry instead, from a budget of
#   max_parse_retries for the whole run; once it is spent, the next reply that
#   does not parse ends the run with "parse_budget_exhausted"
# - add "parse_retries" to every dict you return
