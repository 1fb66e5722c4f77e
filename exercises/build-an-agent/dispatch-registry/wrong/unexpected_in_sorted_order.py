def dispatch(call):
    name, args = call["tool"], call["args"]
    if name not in REGISTRY:
        return f"error: unknown tool {name!r}. Available tools: {', '.join(sorted(REGISTRY))}"
    params = REGISTRY[name]["params"]
    expected = signature(name)
    for param in params:
        if param not in args:
            return f"error: {name} is missing the argument {param!r}. Expected {expected}"
    for arg in sorted(args):
        if arg not in params:
            return f"error: {name} got an unexpected argument {arg!r}. Expected {expected}"
    for param, wanted in params.items():
        got = json_type(args[param])
        if got != wanted:
            return f"error: argument {param!r} of {name} must be a {wanted}, got {got}. Expected {expected}"
    try:
        return str(REGISTRY[name]["function"](**args))
    except Exception as exc:
        return f"error: {name} failed: {type(exc).__name__}: {exc}"
