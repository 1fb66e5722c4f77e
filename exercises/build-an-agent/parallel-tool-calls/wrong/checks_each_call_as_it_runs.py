# Wrong: checks each call just before running it, so the calls before a bad one have already run.
import json


def read_turn(reply):
    """The items of one turn and None, or None and the reason to reject it."""
    try:
        data = json.loads(reply)
    except ValueError:
        return None, "the reply is not valid JSON"
    if isinstance(data, dict):
        data = [data]
    elif not isinstance(data, list):
        return None, "a turn must be a JSON object or a JSON list of objects"
    if not data:
        return None, "the list of calls is empty"
    return data, None


def run_agent(task, script, max_steps=5):
    llm = make_llm(script)
    messages = [{"role": "system", "content": BATCH_SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []
    rejected = 0

    for step in range(1, max_steps + 1):
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})

        calls, problem = read_turn(reply)
        for number, call in enumerate(calls or [], start=1):
            problem = check_call(call)
            if problem is not None:
                problem = f"call {number}: {problem}"
            elif call["tool"] == "finish" and len(calls) > 1:
                problem = "finish must be the only call in its turn"
            if problem is not None:
                break
            if call["tool"] == "finish":
                return {"answer": call["args"]["answer"], "steps": step, "tools_called": tools_called,
                        "rejected": rejected, "stop_reason": "final_answer"}
            tools_called.append(call["tool"])
            messages.append({"role": "tool", "content": dispatch(call)})

        if problem is not None:
            rejected += 1
            messages.append({"role": "user",
                             "content": f"error: turn rejected, no tool was run ({problem}). "
                                        "Reply with one JSON tool call or a JSON list of them, and nothing else."})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "rejected": rejected, "stop_reason": "max_steps"}
