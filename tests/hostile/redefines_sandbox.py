# include: reference
# expect-status: fail
# Redefining the provided functions only changes the learner's own run: cases still judge it.
def dispatch(call):
    return "3"


def make_llm(script):
    return lambda messages: "done"
