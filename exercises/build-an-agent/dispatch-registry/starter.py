# The sandbox (REGISTRY, json_type, signature) is loaded before this file:
# call those names directly.


def dispatch(call):
    name, args = call["tool"], call["args"]
    # TODO, in this order, each returning its "error: ..." string:
    # - a name that is not in REGISTRY
    # - a missing argument, then an unexpected one, then one of the wrong type
    # - a tool that raises: catch it, never let it escape
    return str(REGISTRY[name]["function"](**args))
