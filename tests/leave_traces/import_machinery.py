# leaves: a finder of its own on sys.meta_path and in sys.path_importer_cache, a folder on sys.path, a hook
import importlib.abc
import importlib.machinery
import sys
import types


class TraceLeft(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name == "calendar":
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.TRACE_LEFT = True
        return module

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, TraceLeft())
sys.path.insert(0, "/tmp/trace_left_path")
sys.path_importer_cache["/tmp/trace_left_path"] = TraceLeft()
sys.path_hooks.insert(0, lambda path: TraceLeft())
sys.modules.pop("calendar", None)
# --- probe ---
import sys

assert not any(type(f).__name__ == "TraceLeft" for f in sys.meta_path), "a finder is still on sys.meta_path"
assert "/tmp/trace_left_path" not in sys.path, "a folder is still on sys.path"
assert "/tmp/trace_left_path" not in sys.path_importer_cache, "sys.path_importer_cache still holds a finder"
import calendar

assert not hasattr(calendar, "TRACE_LEFT"), "calendar is still the finder's"
