# Wrong: takes a list holding a non-object for a turn of the wrong shape, instead of checking each item as a call.
import json


def read_turn(reply):
    """The calls of one turn and None, or None and the reason to reject it."""
    try:
        data = json.loads(reply)
    except ValueError:
        return None, "the reply is not valid JSON"
    if isinstance(data, dict):
        data = [data]
    elif not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        return None, "a turn must be a JSON object or a JSON list of objects"
    if not data:
        return None, "the list of calls is empty"
    for number, obj in enumerate(data, start=1):
        problem = check_call(obj)
        if problem is not None:
            return None, f"call {number}: {problem}"
    if len(data) > 1 and any(call["tool"] == "finish" for call in data):
        return None, "finish must be the only call in its turn"
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
        if problem is not None:
            rejected += 1
            messages.append({"role": "user",
                             "content": f"error: turn rejected, no tool was run ({problem}). "
                                        "Reply with one JSON tool call or a JSON list of them, and nothing else."})
            continue

        if calls[0]["tool"] == "finish":
            return {"answer": calls[0]["args"]["answer"], "steps": step, "tools_called": tools_called,
                    "rejected": rejected, "stop_reason": "final_answer"}

        for call in calls:
            tools_called.append(call["tool"])
            messages.append({"role": "tool", "content": dispatch(call)})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "rejected": rejected, "stop_reason": "max_steps"}
