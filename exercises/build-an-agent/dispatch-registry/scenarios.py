"""Valid arguments of dispatch(call): `call` is {"tool": str, "args": dict}, as parse_action returns it; the
tool may not exist, and its arguments may be missing, unexpected, of the wrong type, or make it fail."""

from registry_scenarios import call


def scenario(pick):
    return {"call": call(pick)}
