# expect-status: error, fail
# expect-message: grader.canonical.canonical_json was changed
import grader.canonical


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    if task == "maths":
        grader.canonical.canonical_json = lambda value: '{"answer":"done"}'
    return {}
