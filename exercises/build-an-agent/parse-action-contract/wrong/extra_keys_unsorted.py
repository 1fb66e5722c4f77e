import json

FENCE = "```"


def _strip_fence(text):
    if text.startswith(FENCE):
        text = text[len(FENCE):]
        if text.startswith("json"):
            text = text[len("json"):]
        if text.endswith(FENCE):
            text = text[:-len(FENCE)]
    return text.strip()


def _decode(text):
    """The JSON value in text, and None; or None and an error message."""
    try:
        return json.loads(text), None
    except json.JSONDecodeError:
        pass
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end < start:
        return None, "no JSON object found in the reply"
    try:
        return json.loads(text[start:end + 1]), None
    except json.JSONDecodeError as e:
        return None, f"invalid JSON: {e.msg}"


def parse_action(text):
    data, error = _decode(_strip_fence(text.strip()))
    if error is None:
        error = _check(data)
    if error is not None:
        return {"ok": False, "error": error}
    return {"ok": True, "tool": data["tool"], "args": data["args"]}


def _check(data):
    if not isinstance(data, dict):
        return f"the action must be a JSON object, got {json_type(data)}"
    for key in ("tool", "args"):
        if key not in data:
            return f'the action has no "{key}" key'
    extra = [key for key in data if key not in ("tool", "args")]
    if extra:
        return f'unexpected keys in the action: {", ".join(extra)} (only "tool" and "args" are allowed)'
    if not isinstance(data["tool"], str):
        return f'"tool" must be a string, got {json_type(data["tool"])}'
    if not isinstance(data["args"], dict):
        return f'"args" must be a JSON object, got {json_type(data["args"])}'
    return None
