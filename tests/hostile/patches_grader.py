# expect-status: error
# expect-message: grader.canonical.canonical_json was changed
import grader.canonical

grader.canonical.canonical_json = lambda value: '{"answer":"done"}'


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {}
