# include: reference
# expect-status: pass
# expect-output-starts: <collection after the case>:1: RuntimeWarning: coroutine 'look_up' was never awaited
# A coroutine made and never awaited, kept alive by a cycle: only the grader's collection after the case frees it, and
# Python warns then. The learner reads the warning, which names that collection: never the grader's file and line.
_solve = run_agent


async def look_up(task):
    return task


def run_agent(task, script, **options):
    pending = [look_up(task)]
    pending.append(pending)
    return _solve(task, script, **options)
