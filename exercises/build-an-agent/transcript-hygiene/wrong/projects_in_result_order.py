# Wrong: keeps the projected fields in the order of the result, not of `projections`.
import json


def size(value):
    return len(json.dumps(value))


def keep(name, result, projections, max_chars):
    """What goes into the transcript instead of `result`."""
    if "error" in result or size(result) <= max_chars:
        return result
    if name in projections:
        kept = {field: value for field, value in result.items() if field in projections[name]}
        kept["omitted_keys"] = len(result) - len(kept)
        return kept
    text = json.dumps(result)
    return text[:max_chars] + f"... [{len(text) - max_chars} more characters]"


def run_agent(goal, script, projections, max_chars=200, max_steps=5):
    model = make_model(script)
    run_tool = make_tools()
    transcript = [{"role": "user", "content": goal}]
    observations = []
    chars_full = chars_kept = 0

    for step in range(1, max_steps + 1):
        action = model(transcript)
        if action["tool"] == "finish":
            return {"status": "ok", "answer": action["args"]["answer"], "steps": step,
                    "observations": observations, "chars_full": chars_full,
                    "chars_kept": chars_kept}

        name, args = action["tool"], action["args"]
        result = run_tool(name, args)
        kept = keep(name, result, projections, max_chars)
        observations.append(kept)
        chars_full += size(result)
        chars_kept += size(kept)
        transcript.append({"role": "tool", "name": name, "args": args, "content": kept})

    return {"status": "max_steps", "answer": None, "steps": max_steps,
            "observations": observations, "chars_full": chars_full, "chars_kept": chars_kept}
