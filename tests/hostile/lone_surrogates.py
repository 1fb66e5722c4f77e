# expect-status: error, fail
# expect-message: ValueError: bad \udc00 half
# A lone surrogate (half of a UTF-16 pair) cannot be encoded as UTF-8: printed, raised or returned, it must
# not crash a report. Printed and raised text shows it as its escape; a returned value keeps it exactly.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    print("printing \ud800 half")
    if task == "maths":
        raise ValueError("bad \udc00 half")
    return {"answer": "\ud800", "steps": 0, "tools_called": [], "errors": ["\udfff"]}
