# ---------------------------------------------------------------------------
# The weather sandbox. It is provided: read it, don't edit it.
# It runs before your code, in the same namespace, so you can call
# make_model, make_tools, clock and run_loop directly.
#
# A tiny world with three tools. A tool result is always a dict; a dict
# with an "error" key is a failed call, and its value is the kind of error,
# e.g. {"error": "unknown_city", "city": "Atlantis"}.
# Time is simulated: every tool call moves the clock on by a known number
# of seconds. Nothing here really sleeps.
# ---------------------------------------------------------------------------
import json

import grader.trace as _trace

CITIES = {
    "paris": {"name": "Paris", "lat": 48.86, "lon": 2.35},
    "lyon": {"name": "Lyon", "lat": 45.76, "lon": 4.84},
}
FORECASTS = {
    (48.86, 2.35): {"temp_c": 18, "conditions": "cloudy"},
    (45.76, 4.84): {"temp_c": 21, "conditions": "sunny"},
}


def geocode(city):
    """{"name", "lat", "lon"} of a known city, else {"error": "unknown_city", "city": city}."""
    row = CITIES.get(str(city).strip().lower())
    if not row:
        return {"error": "unknown_city", "city": city}
    return dict(row)


def weather(lat, lon):
    """{"temp_c", "conditions"} at these coordinates, else {"error": "no_forecast"}."""
    row = FORECASTS.get((round(float(lat), 2), round(float(lon), 2)))
    if not row:
        return {"error": "no_forecast"}
    return dict(row)


def weather_report(lat, lon):
    """The forecast service's full answer: the same figures, buried in dozens of keys."""
    key = (round(float(lat), 2), round(float(lon), 2))
    row = FORECASTS.get(key)
    if not row:
        return {"error": "no_forecast"}
    place = next(c["name"] for c in CITIES.values() if (c["lat"], c["lon"]) == key)
    hourly = [
        {"hour": h, "temp_c": row["temp_c"] - 4 + min(h, 24 - h) // 3,
         "conditions": row["conditions"], "rain_mm": 0, "wind_kmh": 8 + h % 5}
        for h in range(24)
    ]
    return {
        "place": place, "lat": key[0], "lon": key[1],
        "temp_c": row["temp_c"], "conditions": row["conditions"],
        "feels_like_c": row["temp_c"] - 1, "humidity_pct": 60, "pressure_hpa": 1015,
        "units": {"temp": "C", "rain": "mm", "wind": "km/h"},
        "source": "sandbox forecast service", "hourly": hourly,
    }


TOOLS = {"geocode": geocode, "weather": weather, "weather_report": weather_report}
SIGNATURES = {"geocode": "geocode(city)", "weather": "weather(lat, lon)",
              "weather_report": "weather_report(lat, lon)"}
COST_S = {"geocode": 0.5, "weather": 1.5, "weather_report": 2.5}  # simulated seconds per call

_now = [0.0]


def clock():
    """The simulated time in seconds since the run started."""
    return _now[0]


def make_tools(faults=None):
    """Returns run_tool(name, args, timeout=None) -> dict, the only way to call a tool.

    faults makes calls misbehave, for the cases: {"weather": ["timeout", None, 45]}
    means the 1st call to weather returns {"error": "timeout", "tool": "weather"},
    the 2nd behaves normally, the 3rd takes 45 simulated seconds instead of
    COST_S["weather"]; later calls behave normally.

    A call moves the clock on by its duration. With a timeout (in seconds), a
    call that would take longer is killed when the timeout expires: the clock
    moves on by exactly `timeout`, and run_tool raises TimeoutError.
    An unknown tool or bad arguments give an error result at no cost.
    """
    pending = {name: list(kinds) for name, kinds in (faults or {}).items()}

    def run_tool(name, args, timeout=None):
        if name not in TOOLS:
            result = {"error": "unknown_tool", "tool": name, "available": sorted(TOOLS)}
            _trace.record("tool", tool=name, arguments=args, result=result)
            return result
        queue = pending.get(name)
        fault = queue.pop(0) if queue else None
        duration = fault if isinstance(fault, (int, float)) else COST_S[name]
        if timeout is not None and duration > timeout:
            _now[0] += timeout
            _trace.record("tool", tool=name, arguments=args,
                          result=f"(killed after {timeout} s; it would have taken {duration} s)")
            _trace.record("note", text=f"the clock is at {clock()} s")
            raise TimeoutError(f"{name} did not finish within {timeout} s")
        if isinstance(fault, str):
            result = {"error": fault, "tool": name}
        else:
            try:
                result = TOOLS[name](**args)
            except (TypeError, ValueError):
                duration = 0
                result = {"error": "bad_args", "tool": name, "expected": SIGNATURES[name]}
        _now[0] += duration
        _trace.record("tool", tool=name, arguments=args, result=result)
        if timeout is not None or duration != COST_S[name]:
            _trace.record("note", text=f"{name} took {duration} s; the clock is at {clock()} s")
        return result

    return run_tool


# The trace helpers never raise: whatever the transcript is, the model answers as before.
def _trace_events(transcript, start):
    """The events from index `start` on, as the trace shows messages: {role, content}."""
    try:
        return [{"role": f"tool: {e.get('name')}" if e.get("role") == "tool" else e.get("role"),
                 "content": e.get("content")} for e in transcript[start:]]
    except (AttributeError, TypeError):
        return [{"role": None, "content": repr(transcript)}]


def _last_event(transcript):
    """The latest "tool" event of the transcript, or None."""
    for event in reversed(transcript):
        if isinstance(event, dict) and event.get("role") == "tool":
            return event
    return None


def _last_result(transcript):
    event = _last_event(transcript)
    return None if event is None else event.get("content")


def _fill(text, transcript):
    """A scripted answer with its placeholders replaced (see make_model)."""
    if "{last_result}" in text:
        last = _last_result(transcript)
        text = text.replace("{last_result}", "" if last is None else json.dumps(last))
    if "{last_call}" in text:
        event = _last_event(transcript)
        text = text.replace("{last_call}", "" if event is None else _describe(
            {"tool": event.get("name"), "args": event.get("args") if isinstance(event.get("args"), dict) else {}}))
    if "{roles}" in text:
        text = text.replace("{roles}", " ".join(
            str(e.get("role")) if isinstance(e, dict) else "?" for e in transcript))
    return text


def make_model(script):
    """A scripted stand-in for the model: model(transcript) -> action dict.

    Each call returns the next action of `script`, e.g.
    {"tool": "geocode", "args": {"city": "Paris"}} or
    {"tool": "finish", "args": {"answer": "..."}}.
    In a string argument, {last_result} is replaced by the JSON text of the
    content of the latest "tool" event in the transcript ("" if none),
    {last_call} by that event's name and args, e.g. "geocode(city='Paris')",
    and {roles} by the role of every event of the transcript, in order,
    e.g. "user tool tool": what the model has been shown, and how much.
    Once the script is used up, it finishes with "(script exhausted)".
    """
    actions = list(script)
    seen = [0]  # how many events the previous call got, for the trace

    def model(transcript):
        new = _trace_events(transcript, seen[0])
        seen[0] = len(transcript)
        if not actions:
            action = {"tool": "finish", "args": {"answer": "(script exhausted)"}}
        else:
            action = actions.pop(0)
            action = {"tool": action["tool"], "args": {
                k: _fill(v, transcript) if isinstance(v, str) else v for k, v in action["args"].items()}}
        _trace.record("model", messages=new, reply=action)
        return action

    return model


def _describe(action):
    inside = ", ".join(f"{k}={v!r}" for k, v in sorted(action["args"].items()))
    return f"{action['tool']}({inside})"


def run_loop(goal, policy, faults=None, max_steps=5):
    """Runs policy(goal, transcript) -> action until it finishes or max_steps run out.

    The transcript starts as [{"role": "user", "content": goal}]; each tool
    call adds {"role": "tool", "name": ..., "args": ..., "content": result}.
    Returns {"status": "ok" | "max_steps", "answer": str | None,
             "actions": ["geocode(city='Paris')", ...]}.
    """
    run_tool = make_tools(faults)
    transcript = [{"role": "user", "content": goal}]
    actions = []
    seen = 0
    for _ in range(max_steps):
        action = policy(goal, [dict(event) for event in transcript])
        _trace.record("model", messages=_trace_events(transcript, seen), reply=action)
        seen = len(transcript)
        if (not isinstance(action, dict) or set(action) != {"tool", "args"}
                or not isinstance(action["tool"], str) or not isinstance(action["args"], dict)):
            _trace.record("parse_error", error="not an action")
            raise ValueError(f'policy must return {{"tool": str, "args": dict}}, got {action!r}')
        _trace.record("parse", call={"tool": action["tool"], "arguments": action["args"]})
        actions.append(_describe(action))
        if action["tool"] == "finish":
            return {"status": "ok", "answer": str(action["args"].get("answer")), "actions": actions}
        result = run_tool(action["tool"], action["args"])
        transcript.append({"role": "tool", "name": action["tool"],
                           "args": action["args"], "content": result})
    return {"status": "max_steps", "answer": None, "actions": actions}
