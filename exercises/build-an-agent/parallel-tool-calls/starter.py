# The sandbox (BATCH_SYSTEM_PROMPT, TOOLS, make_llm, check_call, parse_call,
# dispatch) is loaded before this file: call those names directly.
import json


def run_agent(task, script, max_steps=5):
    llm = make_llm(script)
    messages = [{"role": "system", "content": BATCH_SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []
    rejected = 0

    for step in range(1, max_steps + 1):
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})

        # TODO: a turn may now be a JSON list of calls. Read the whole turn
        # first, check every call with check_call, and reject the turn (run
        # nothing) if any call is bad. This version handles one call only.
        try:
            call = parse_call(reply)
        except ValueError as e:
            rejected += 1
            messages.append({"role": "user",
                             "content": f"error: turn rejected, no tool was run ({e}). "
                                        "Reply with one JSON tool call or a JSON list of them, and nothing else."})
            continue

        if call["tool"] == "finish":
            return {"answer": call["args"]["answer"], "steps": step, "tools_called": tools_called,
                    "rejected": rejected, "stop_reason": "final_answer"}

        tools_called.append(call["tool"])
        messages.append({"role": "tool", "content": dispatch(call)})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "rejected": rejected, "stop_reason": "max_steps"}
