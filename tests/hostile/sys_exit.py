# expect-status: error
# expect-message: SystemExit: 3
import sys


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    sys.exit(3)
