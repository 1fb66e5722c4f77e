# include: reference
# expect-status: pass
# also-alone: yes
# unregisterJsModule leaves `js` and `pyodide_js` in sys.modules, and importing them again, or any module
# that keeps a JavaScript object, would hand learner code the JavaScript global scope (under Node:
# process.getBuiltinModule("child_process")). Every route is tried; none may give anything.
import importlib
import sys

_found = [name for name, module in list(sys.modules.items()) if type(module).__name__ == "JsProxy"]
for _name in ("js", "pyodide_js", "_pyodide_core", "pyodide.code", "pyodide.webloop"):
    try:
        _module = importlib.import_module(_name)
    except Exception:  # noqa: BLE001 - refused is the expected answer
        continue
    _found.extend(f"{_name}.{key}" for key, value in vars(_module).items() if type(value).__name__ == "JsProxy")
    if _name in ("js", "pyodide_js"):
        _found.append(_name)
try:
    from pyodide.code import run_js

    _found.append(f"run_js gave {run_js('globalThis')!r}")
except Exception:  # noqa: BLE001
    pass
assert not _found, f"reached JavaScript through {_found}"
