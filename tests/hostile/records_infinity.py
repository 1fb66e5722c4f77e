# A trace value JSON has no form for: the case is judged as any other, not lost to the grader.
# expect-status: fail
# expect-message: Differs from expected at
from grader import trace


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    trace.record("note", text="infinite", value=float("inf"), others=[float("-inf"), float("nan")])
    return {"answer": None, "steps": 0, "tools_called": [], "errors": 0, "stop_reason": "final_answer"}
