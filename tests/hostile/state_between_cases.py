# include: reference
# expect-status: pass
# also-alone: yes
# Every case runs in a fresh namespace, and mutating a case's input cannot change its expected value (nor what a
# case that calls twice, `call_twice`, passes to its second call in the same namespace).
_SEEN = []
_solve = run_agent


def run_agent(task, script, **options):
    _SEEN.append(task)
    assert _SEEN in ([task], [task, task]), "state leaked in from an earlier case"
    result = _solve(task, script, **options)
    script.clear()
    task = "changed"
    return result
