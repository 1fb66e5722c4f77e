# Wrong: checks and runs each call in turn, so the calls before a bad one have already run.
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

        problem = None
        try:
            data = json.loads(reply)
        except ValueError:
            data, problem = [], "the reply is not valid JSON"
        if isinstance(data, dict):
            data = [data]
        elif not isinstance(data, list):
            data, problem = [], "a turn must be a JSON object or a JSON list of objects"
        elif not data and problem is None:
            problem = "the list of calls is empty"

        if problem is None and len(data) == 1 and check_call(data[0]) is None and data[0]["tool"] == "finish":
            return {"answer": data[0]["args"]["answer"], "steps": step, "tools_called": tools_called,
                    "rejected": rejected, "stop_reason": "final_answer"}

        for number, call in enumerate(data, start=1):
            bad = check_call(call)
            if bad is None and call["tool"] == "finish" and len(data) > 1:
                bad = "finish must be the only call in its turn"
            if bad is not None:
                problem = f"call {number}: {bad}"
                break
            tools_called.append(call["tool"])
            messages.append({"role": "tool", "content": dispatch(call)})

        if problem is not None:
            rejected += 1
            messages.append({"role": "user",
                             "content": f"error: turn rejected, no tool was run ({problem}). "
                                        "Reply with one JSON tool call or a JSON list of them, and nothing else."})

    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "rejected": rejected, "stop_reason": "max_steps"}
