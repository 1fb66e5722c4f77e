# expect-status: error
# expect-message: nested more than 100 levels deep
# A value nested 3,000 deep overflowed the runner's JSON.stringify and voided the whole folder.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    value = []
    for _ in range(3000):
        value = [value]
    return {"answer": value}
