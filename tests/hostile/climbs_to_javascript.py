# expect-status: error
# expect-message: cannot import name 'to_js' from 'pyodide.ffi'
# From any JavaScript object, .constructor.constructor would be Function, i.e. arbitrary JavaScript (the worker's
# postMessage, or Node's file system with the hidden expected values). There is no JavaScript object to start
# from: the ffi's to_js, which made one of a list, is gone (and the Function constructors are cut as well).
from pyodide.ffi import to_js

run_js = to_js([]).constructor.constructor("return globalThis")


def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    return {}
