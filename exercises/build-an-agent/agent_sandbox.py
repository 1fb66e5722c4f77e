# ---------------------------------------------------------------------------
# The sandbox your agent lives in. It is provided: read it, don't edit it.
# It runs before your code, in the same namespace, so you can call
# make_llm, parse_tool_call, dispatch and use SYSTEM_PROMPT and TOOLS directly.
#
# Four deterministic tools, each described by a JSON-Schema-style argument
# spec: the same shape you would hand to a real model's tool-calling API.
#
# The _trace.record calls write down every model call, parse and tool call,
# so each case's "Trace" on the page shows what your loop did, step by step.
# ---------------------------------------------------------------------------
import json

import grader.trace as _trace


def _add(a, b):
    total = a + b
    # 1 + 2 prints as "3", and 1.5 + 1.5 as "3" too, never "3.0".
    if isinstance(total, float) and total.is_integer():
        total = int(total)
    return str(total)


def _search_web(query):
    # There is no network in the sandbox, so this tool always fails.
    return "error: search_web is unavailable in the sandbox (no network)"


_WEATHER = {
    "lisbon": "Lisbon: sunny, 24 C",
    "oslo": "Oslo: snow, -3 C",
    "paris": "Paris: light rain, 14 C",
    "tokyo": "Tokyo: cloudy, 19 C",
}


def _get_weather(city):
    report = _WEATHER.get(city.strip().lower())
    if report is None:
        raise LookupError(
            f"no weather data for {city!r}; known cities: Lisbon, Oslo, Paris, Tokyo"
        )
    return report


def _word_count(text):
    return str(len(text.split()))


TOOLS = {
    "add": {
        "description": "Add two numbers and return the sum.",
        "parameters": {
            "type": "object",
            "properties": {
                "a": {"type": "number", "description": "The first number."},
                "b": {"type": "number", "description": "The second number."},
            },
            "required": ["a", "b"],
        },
        "function": _add,
    },
    "search_web": {
        "description": "Search the web and return the top results.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to search for."},
            },
            "required": ["query"],
        },
        "function": _search_web,
    },
    "get_weather": {
        "description": "Current weather for a city (Lisbon, Oslo, Paris or Tokyo).",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city's name."},
            },
            "required": ["city"],
        },
        "function": _get_weather,
    },
    "word_count": {
        "description": "Count the words in a text.",
        "parameters": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "The text to count."},
            },
            "required": ["text"],
        },
        "function": _word_count,
    },
}


def _signature(name):
    properties = TOOLS[name]["parameters"]["properties"]
    inside = ", ".join(f"{arg}: {spec['type']}" for arg, spec in properties.items())
    return f"{name}({inside})"


SYSTEM_PROMPT = (
    "You are an agent working in a small sandbox. You can call these tools:\n"
    + "".join(f"- {_signature(name)}: {tool['description']}\n" for name, tool in TOOLS.items())
    + "\n"
    "To call a tool, reply with a single JSON object and nothing else:\n"
    '{"tool": "<tool name>", "arguments": {"<argument>": <value>, ...}}\n'
    'The result comes back to you in a message with the role "tool".\n'
    "Any reply that is not a JSON object is your final answer to the user."
)


def make_llm(script):
    """A scripted stand-in for a language model.

    Each call llm(messages) returns the next reply of `script`, after replacing
      {last_tool_result}  by the content of the latest message with role "tool",
      {last_feedback}     by the content of the latest message with role "user"
                          that came after the task (the first "user" message),
      {task}              by the content of that first "user" message,
      {roles}             by the role of every message, in order, such as
                          "system user assistant tool": what the model was
                          shown, and how much of it.
    Each is replaced by "" when there is no such message.
    Once the script is used up, every call returns "(script exhausted)".
    """
    replies = list(script)
    position = 0
    seen = None  # how many messages the previous call got, for the trace

    def llm(messages):
        nonlocal position, seen
        start = seen if seen is not None else _after_system_prompt(messages)
        seen = _count(messages)
        if position >= len(replies):
            _trace.record("model", messages=_trace_messages(messages, start), reply="(script exhausted)")
            return "(script exhausted)"
        reply = replies[position]
        position += 1

        last_tool_result = ""
        last_feedback = ""
        task = None
        roles = []
        for message in messages:
            role = message.get("role")
            roles.append(str(role))
            if role == "tool":
                last_tool_result = str(message.get("content", ""))
            elif role == "user":
                if task is not None:
                    last_feedback = str(message.get("content", ""))
                else:
                    task = str(message.get("content", ""))
        # str.replace, not str.format: replies are full of JSON braces.
        reply = reply.replace("{last_tool_result}", last_tool_result)
        reply = reply.replace("{last_feedback}", last_feedback)
        reply = reply.replace("{task}", task or "")
        reply = reply.replace("{roles}", " ".join(roles))
        _trace.record("model", messages=_trace_messages(messages, start), reply=reply)
        return reply

    return llm


# The trace helpers never raise: whatever the messages are, the model answers as before.
def _count(messages):
    try:
        return len(messages)
    except TypeError:
        return 0


def _after_system_prompt(messages):
    try:
        return 1 if messages[0].get("role") == "system" else 0
    except (AttributeError, IndexError, KeyError, TypeError):
        return 0


def _trace_messages(messages, start):
    """The messages from index `start` on, as {role, content}: what the loop added since the last call."""
    try:
        return [{"role": m.get("role"), "content": m.get("content")} for m in messages[start:]]
    except (AttributeError, KeyError, TypeError):
        return [{"role": None, "content": repr(messages)}]


def _json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def parse_tool_call(reply):
    """Read one model reply.

    Returns None when the reply is a final answer: its text (ignoring leading
    and trailing whitespace) does not start with "{".
    Returns {"tool": str, "arguments": dict} for a well-formed tool call: an
    object with exactly those two keys.
    Raises ValueError when the reply starts with "{" but is not a valid tool
    call: broken JSON, or JSON of the wrong shape (a key missing, of the wrong
    type, or one too many: a flag such as "execute" is refused, not dropped).
    """
    try:
        call = _parse_tool_call(reply)
    except ValueError as e:
        _trace.record("parse_error", error=str(e))
        raise
    _trace.record("parse", call=call)
    return call


def _parse_tool_call(reply):
    text = reply.strip()
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"invalid JSON in tool call: {e.msg}") from None
    if not isinstance(data, dict):
        raise ValueError(f"a tool call must be a JSON object, got {_json_type(data)}")
    if "tool" not in data:
        raise ValueError('the tool call has no "tool" key')
    if not isinstance(data["tool"], str):
        raise ValueError(f'"tool" must be a string, got {_json_type(data["tool"])}')
    if "arguments" not in data:
        raise ValueError('the tool call has no "arguments" key')
    if not isinstance(data["arguments"], dict):
        raise ValueError(
            f'"arguments" must be a JSON object, got {_json_type(data["arguments"])}'
        )
    extra = ", ".join(sorted(set(data) - {"tool", "arguments"}))
    if extra:
        raise ValueError(f'unexpected keys in the tool call: {extra} (only "tool" and "arguments" are allowed)')
    return {"tool": data["tool"], "arguments": dict(data["arguments"])}


def _type_matches(value, expected):
    if expected == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if expected == "string":
        return isinstance(value, str)
    if expected == "boolean":
        return isinstance(value, bool)
    if expected == "object":
        return isinstance(value, dict)
    if expected == "array":
        return isinstance(value, list)
    return True


def dispatch(call):
    """Run one parsed tool call and return its result as a string.

    Never raises. A result that starts with "error:" means the call failed:
    unknown tool, wrong arguments, or the tool itself failed.
    """
    result = _dispatch(call)
    fields = call if isinstance(call, dict) else {}
    _trace.record("tool", tool=fields.get("tool"), arguments=fields.get("arguments"), result=result)
    return result


def _dispatch(call):
    name = None
    try:
        if not isinstance(call, dict):
            return 'error: a tool call must be a dict with "tool" and "arguments"'
        name = call.get("tool")
        if not isinstance(name, str) or name not in TOOLS:
            available = ", ".join(sorted(TOOLS))
            return f"error: unknown tool {name!r}; available tools: {available}"
        tool = TOOLS[name]
        expected = _signature(name)
        arguments = call.get("arguments", {})
        if not isinstance(arguments, dict):
            return f"error: the arguments of {name} must be an object (expected {expected})"
        spec = tool["parameters"]
        properties = spec["properties"]
        for arg in spec["required"]:
            if arg not in arguments:
                return f"error: {name} is missing the argument {arg!r} (expected {expected})"
        for arg in arguments:
            if arg not in properties:
                return f"error: {name} got an unexpected argument {arg!r} (expected {expected})"
        for arg, value in arguments.items():
            wanted = properties[arg]["type"]
            if not _type_matches(value, wanted):
                return (
                    f"error: argument {arg!r} of {name} must be a {wanted}, "
                    f"got {_json_type(value)} (expected {expected})"
                )
        return str(tool["function"](**arguments))
    except Exception as exc:  # a failing tool must never crash the agent
        return f"error: {name} failed: {exc}"
