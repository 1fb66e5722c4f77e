# The sandbox (json_type, REGISTRY, signature) is loaded before this file:
# call those names directly.
import json


def parse_action(text):
    # 1. Clean up: strip whitespace, then a ```json fence if there is one.
    # 2. Decode: json.loads on the whole text; if that fails, on the slice
    #    from the first "{" to the last "}".
    # 3. Check the shape, in the order of the task's table.
    # Return {"ok": True, "tool": ..., "args": ...}
    # or     {"ok": False, "error": "<the exact message>"}.
    return {"ok": False, "error": "not written yet"}
