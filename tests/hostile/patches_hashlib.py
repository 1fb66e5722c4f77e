# expect-status: fail
# expect-message: Hidden case: your result differs from the expected one.
# Digests are computed outside the learner's interpreter, so this changes nothing.
import hashlib


class _Same:
    def __init__(self, *args):
        pass

    def hexdigest(self):
        return "0" * 64


hashlib.sha256 = _Same


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {}
