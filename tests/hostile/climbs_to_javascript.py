# expect-status: error
# expect-message: TypeError
# From any JavaScript object, .constructor.constructor would be Function, i.e. arbitrary JavaScript
# (the worker's postMessage, or Node's file system with the hidden expected values). It is cut.
from pyodide.ffi import to_js

run_js = to_js([]).constructor.constructor("return globalThis")


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {}
