# Wrong: takes the forecast for an error only when its `error` is not empty.
import re


def extract_city(goal):
    for row in CITIES.values():
        if row["name"].lower() in goal.lower():
            return row["name"]
    match = re.search(r"\bin ([A-Za-z]+)", goal)
    return match.group(1) if match else "unknown"


def last_result(transcript, name):
    for event in reversed(transcript):
        if event.get("role") == "tool" and event.get("name") == name:
            return event.get("content")
    return None


def finish(answer):
    return {"tool": "finish", "args": {"answer": answer}}


def refusal(result):
    return finish("cannot: " + result["error"].replace("_", " "))


def policy(goal, transcript):
    geo = last_result(transcript, "geocode")
    if geo is None:
        return {"tool": "geocode", "args": {"city": extract_city(goal)}}
    if "error" in geo:
        return refusal(geo)
    wx = last_result(transcript, "weather")
    if wx is None:
        return {"tool": "weather", "args": {"lat": geo["lat"], "lon": geo["lon"]}}
    if wx.get("error"):
        return refusal(wx)
    return finish(f"{geo['name']} is {wx['temp_c']}C and {wx['conditions']}.")


# The cases call run_agent: it runs the sandbox's loop with your policy.
# Leave it as it is.
def run_agent(goal, faults=None, max_steps=5):
    return run_loop(goal, policy, faults=faults, max_steps=max_steps)
