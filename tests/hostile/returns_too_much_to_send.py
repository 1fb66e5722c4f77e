# expect-status: fail, error
# expect-message: was not sent back
# runs-in: cli
# Every case returns a value just inside what the grader reads back (a million characters of JSON), of the kind
# that grows most once escaped again for the runner's reply: about two megabytes a case. The Node runner's reply
# to one submission is capped, so the cases past the cap are errors that say so (the page has no such reply).
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return '"' * 499_990
