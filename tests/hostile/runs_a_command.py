# include: reference
# expect-status: error, pass
# expect-message: The grader runs no commands
# also-plain: yes
# Python's ways to run a command, each tried in the "maths" case: Emscripten's system() calls Node's
# child_process.spawnSync, so under Node only the permission flag stopped os.system from running a shell (and
# crashed Python). Each must raise, and run nothing; a posix module made afresh (_imp.create_builtin) holds
# system() as C has it, which must return -1 (no shell), nothing run: the worker answers Emscripten's call itself.
import _imp
import importlib.machinery
import os
import posix
import subprocess

_solve = run_agent
COMMAND = "echo a learner's command ran"
WAYS = {
    "os.system": lambda: os.system(COMMAND),
    "posix.system": lambda: posix.system(COMMAND),
    "os.popen": lambda: os.popen(COMMAND).read(),
    "subprocess.run": lambda: subprocess.run(COMMAND, shell=True, check=False),
}


def fresh_system():
    spec = importlib.machinery.ModuleSpec("posix", importlib.machinery.BuiltinImporter, origin="built-in")
    return _imp.create_builtin(spec).system(COMMAND)


def run_agent(task, script, **options):
    if task == "maths":
        said = []
        for name, way in WAYS.items():
            try:
                said.append(f"{name} returned {way()!r}")
            except Exception as exc:  # each way must fail as the first does
                said.append(f"{name}: {type(exc).__name__}: {exc}")
        fresh = fresh_system()
        if fresh == -1 and all(" returned " not in line for line in said):
            raise PermissionError(said[0].split(": ", 2)[-1])
        said.append(f"a fresh posix.system returned {fresh!r}")
        raise AssertionError("; ".join(said))
    return _solve(task, script, **options)
