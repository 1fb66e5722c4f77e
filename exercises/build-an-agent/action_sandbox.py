# ---------------------------------------------------------------------------
# The sandbox of the "Guard the loop" challenges. It is provided: read it,
# don't edit it. It runs before your code, in the same namespace, so you can
# call make_llm, check_call, parse_call, dispatch and use TOOLS and the
# prompts directly.
#
# The model speaks the strict action contract of "Parse the Action
# Contract": every reply is JSON, {"tool": "<name>", "args": {...}}, with no
# prose around it. The answer is a tool too: finish(answer).
# The world is a shop's support desk, and refund() really changes it.
# ---------------------------------------------------------------------------
import json

import grader.trace as _trace

_ORDERS = {17: "order 17: 2 books, 30 EUR, delivered",
           23: "order 23: a desk lamp, 45 EUR, delivered",
           42: "order 42: a kettle, 25 EUR, in transit"}
_refunded = []  # order ids refunded so far in this run, in order


def _get_order(order_id):
    if order_id not in _ORDERS:
        raise LookupError(f"no order {order_id}")
    return _ORDERS[order_id]


def _refund(order_id):
    if order_id not in _ORDERS:
        raise LookupError(f"no order {order_id}")
    if order_id in _refunded:
        raise ValueError(f"order {order_id} was already refunded")
    _refunded.append(order_id)
    return f"refunded order {order_id}"


def _list_refunds():
    return "refunds issued: " + (", ".join(str(i) for i in _refunded) or "none")


TOOLS = {
    "get_order": {"function": _get_order, "params": {"order_id": "number"}},
    "refund": {"function": _refund, "params": {"order_id": "number"}},
    "list_refunds": {"function": _list_refunds, "params": {}},
    "finish": {"function": lambda answer: answer, "params": {"answer": "string"}},
}


def _signature(name):
    params = TOOLS[name]["params"]
    return f"{name}(" + ", ".join(f"{p}: {t}" for p, t in params.items()) + ")"


SYSTEM_PROMPT = (
    "You are a support agent for a small shop. Your tools:\n"
    + "".join(f"- {_signature(name)}\n" for name in TOOLS)
    + "Reply with JSON only, one tool call and nothing else:\n"
    '{"tool": "<tool name>", "args": {"<argument>": <value>, ...}}\n'
    "Results come back in messages with the role \"tool\". "
    "To give your answer, call finish."
)

BATCH_SYSTEM_PROMPT = SYSTEM_PROMPT + (
    "\nTo run several independent tools at once, reply with a JSON list of tool calls."
)


def _json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def _problem(obj):
    if not isinstance(obj, dict):
        return f"a call must be a JSON object, got {_json_type(obj)}"
    if sorted(obj) != ["args", "tool"]:
        return f"a call must have exactly the keys tool and args, got: {', '.join(sorted(obj)) or 'none'}"
    name, args = obj["tool"], obj["args"]
    if not isinstance(name, str) or name not in TOOLS:
        return f"unknown tool {name!r}; allowed tools: {', '.join(sorted(TOOLS))}"
    params = TOOLS[name]["params"]
    if (not isinstance(args, dict) or sorted(args) != sorted(params)
            or any(_json_type(args[p]) != t for p, t in params.items())):
        return f"bad arguments for {name}, expected {_signature(name)}"
    return None


def check_call(obj):
    """Check one decoded JSON value against the contract, the allowed tools
    and their arguments. Returns None when it is a valid call, else a message
    saying what is wrong with it. Never raises."""
    problem = _problem(obj)
    if problem is None:
        _trace.record("parse", call=obj)
    else:
        _trace.record("parse_error", error=problem)
    return problem


def parse_call(reply):
    """Read a reply that must be exactly one call. Returns the call, or raises
    ValueError with a message for the model."""
    try:
        obj = json.loads(reply)
    except ValueError:
        _trace.record("parse_error", error="the reply is not valid JSON")
        raise ValueError("the reply is not valid JSON") from None
    problem = check_call(obj)
    if problem is not None:
        raise ValueError(problem)
    return obj


def dispatch(call):
    """Run one valid call and return its result as a string. Never raises: a
    result that starts with "error:" means the call failed."""
    problem = _problem(call)
    if problem is not None:
        result = f"error: {problem}"
    else:
        try:
            result = str(TOOLS[call["tool"]]["function"](**call["args"]))
        except Exception as exc:
            result = f"error: {call['tool']} failed: {exc}"
    _trace.record("tool", tool=call.get("tool") if isinstance(call, dict) else None,
                  arguments=call.get("args") if isinstance(call, dict) else None, result=result)
    return result


def make_llm(script):
    """A scripted stand-in for a language model.

    Each call llm(messages) returns the next reply of `script`, after replacing
      {last_tool_result}  by the content of the latest message with role "tool",
      {last_feedback}     by the content of the latest message with role "user"
                          that came after the task (the first "user" message),
      {task}              by the content of that first "user" message,
      {last_reply}        by the content of the latest message with role
                          "assistant": the model's own reply as it was kept,
      {roles}             by the role of every message, in order, such as
                          "system user assistant tool": what the model was
                          shown, and how much of it,
    each written JSON-escaped, so it can sit inside a JSON string, and ""
    when there is no such message.
    Once the script is used up, every call returns "(script exhausted)".
    """
    replies = list(script)
    position = 0
    seen = 0  # messages already shown in the trace

    def llm(messages):
        nonlocal position, seen
        new, seen = messages[seen:], len(messages)
        if position >= len(replies):
            reply = "(script exhausted)"
        else:
            reply = replies[position]
            position += 1
            last = {"tool": "", "user": "", "assistant": ""}
            task = ""
            users = 0
            for message in messages:
                role = message.get("role")
                if role == "user":
                    users += 1
                    if users == 1:
                        task = str(message.get("content", ""))
                if role in ("tool", "assistant") or (role == "user" and users > 1):
                    last[role] = str(message.get("content", ""))
            roles = " ".join(str(message.get("role")) for message in messages)
            for placeholder, text in (("{last_tool_result}", last["tool"]),
                                      ("{last_feedback}", last["user"]),
                                      ("{last_reply}", last["assistant"]), ("{task}", task),
                                      ("{roles}", roles)):
                reply = reply.replace(placeholder, json.dumps(text, ensure_ascii=False)[1:-1])
        _trace.record("model", messages=new, reply=reply)
        return reply

    return llm
