# include: reference
# expect-status: error, pass
# expect-message: sys.monitoring tools changed
# also-alone: yes
# A sys.monitoring tool outlives the case that installs it: it could record every later return value (a
# classmate's too, in a folder graded in one interpreter) for replay. The guard sees the tool and the
# interpreter is replaced; in a folder, the next submission starts from a fresh one anyway.
import sys

_solve = run_agent
_replay = getattr(sys, "_loopcraft_replay", None)
assert _replay is None, f"replaying {len(_replay)} values recorded earlier"


def run_agent(task, script, **options):
    if task == "maths":
        recorded = []
        sys._loopcraft_replay = recorded
        monitoring = sys.monitoring
        monitoring.use_tool_id(3, "spy")
        monitoring.register_callback(3, monitoring.events.PY_RETURN, lambda code, offset, value: recorded.append(value))
        monitoring.set_events(3, monitoring.events.PY_RETURN)
    return _solve(task, script, **options)
