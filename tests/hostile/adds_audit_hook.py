# include: reference
# expect-status: pass
# An audit hook can never be removed: it would see every later case's code and arguments (a classmate's too,
# in a folder graded in one interpreter). The grader's own hook, added first, refuses every later one.
import sys

_seen = []
sys.addaudithook(lambda event, args: _seen.append(event))
compile("1 + 1", "<probe>", "eval")  # an audited event
assert not _seen, "an audit hook was added: it sees every later case"
