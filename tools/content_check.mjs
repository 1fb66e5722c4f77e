// Dev aid: run every challenge of a track in Pyodide (Python 3.14, what learners run) against its
// cases, for the reference solution and each wrong solution.
//
//   node tools/content_check.mjs [track-dir] [--print] [--only=slug]
//
//   track-dir  default exercises/build-an-agent
//   --print    also print the reference's return value per case (to fill in `expected`)
//
// Exit code 1 when a reference solution fails a case, a wrong solution passes every case, or the
// exercise files are inconsistent (missing files, wrong/ files not listed, duplicate case names).
// YAML is read with ruamel.yaml from the project's .venv (falls back to python3 on PATH).
// Run it from the repository root so that `pyodide` resolves from node_modules.

import { loadPyodide } from "pyodide";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const argv = process.argv.slice(2);
const printValues = argv.includes("--print");
const only = argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const trackDir = resolve(argv.find((a) => !a.startsWith("--")) ?? "exercises/build-an-agent");

const python = existsSync(".venv/bin/python") ? ".venv/bin/python" : "python3";
function readYaml(path) {
  const code =
    "import json, sys\n" +
    "from ruamel.yaml import YAML\n" +
    "with open(sys.argv[1], encoding='utf-8') as f:\n" +
    "    print(json.dumps(YAML(typ='safe', pure=True).load(f)))\n";
  return JSON.parse(execFileSync(python, ["-c", code, path], { encoding: "utf-8" }));
}

const HELPERS = `
import json as _json

def _canon(value):
    def fix(v):
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, (list, tuple)):
            return [fix(x) for x in v]
        if isinstance(v, dict):
            return {k: fix(x) for k, x in v.items()}
        return v
    return _json.dumps(fix(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)

def _call(entry, args_json):
    # Runs inside the case's own namespace (see run() below).
    try:
        value = globals()[entry](**_json.loads(args_json))
    except Exception as exc:
        return "raised " + type(exc).__name__ + ": " + str(exc)
    try:
        return _canon(value)
    except Exception as exc:
        return "returned a non-JSON value: " + repr(value)

def _expected(expected_json):
    return _canon(_json.loads(expected_json))
`;

let failed = false;
function problem(message) {
  failed = true;
  console.log(`  PROBLEM: ${message}`);
}

const pyodide = await loadPyodide();
const helpers = pyodide.globals.get("dict")();
pyodide.runPython(HELPERS, { globals: helpers });
const dictType = pyodide.globals.get("dict");

// A fresh namespace per case: the sandbox first, then the solution, then entry(**args).
function run(sandbox, source, entry, argsJson) {
  const ns = dictType();
  try {
    ns.set("__name__", "__main__");
    pyodide.runPython(sandbox, { globals: ns, filename: "agent_sandbox.py" });
    pyodide.runPython(source, { globals: ns, filename: "solution.py" });
    ns.set("__entry", entry);
    ns.set("__args_json", argsJson);
    pyodide.runPython(HELPERS, { globals: ns });
    return pyodide.runPython("_call(__entry, __args_json)", { globals: ns });
  } finally {
    ns.destroy();
  }
}
const canonExpected = helpers.get("_expected");
console.log(`Python ${pyodide.runPython("import sys; sys.version.split()[0]")} (Pyodide ${pyodide.version})`);

const track = readYaml(join(trackDir, "track.yaml"));
for (const slug of track.challenges) {
  if (only && slug !== only) continue;
  const dir = join(trackDir, slug);
  const meta = readYaml(join(dir, "exercise.yaml"));
  const sandbox = readFileSync(join(dir, meta.sandbox), "utf-8");
  const cases = meta.cases;
  console.log(`\n== ${slug} (${cases.length} cases, ${cases.filter((c) => c.hidden).length} hidden)`);

  const names = cases.map((c) => c.name);
  if (new Set(names).size !== names.length) problem("duplicate case names");
  for (const file of ["starter.py", "solution.py"]) {
    if (!existsSync(join(dir, file))) problem(`missing ${file}`);
  }
  const listed = (meta.wrong_solutions ?? []).map((w) => w.file);
  const onDisk = existsSync(join(dir, "wrong"))
    ? readdirSync(join(dir, "wrong")).filter((f) => f.endsWith(".py")).map((f) => `wrong/${f}`)
    : [];
  for (const f of onDisk) if (!listed.includes(f)) problem(`${f} is not listed in wrong_solutions`);
  for (const f of listed) if (!onDisk.includes(f)) problem(`${f} is listed but missing`);

  const runAll = (source) =>
    cases.map((c) => {
      const actual = run(sandbox, source, meta.entry, JSON.stringify(c.args ?? {}));
      const expected = canonExpected(JSON.stringify(c.expected));
      return { c, actual, expected, ok: actual === expected };
    });

  // The starter must load (it is what the editor holds at first).
  try {
    run(sandbox, readFileSync(join(dir, "starter.py"), "utf-8"), meta.entry, JSON.stringify(cases[0].args));
  } catch (e) {
    problem(`starter.py does not load: ${String(e).split("\n").slice(-2).join(" ")}`);
  }

  console.log("-- reference solution.py");
  for (const r of runAll(readFileSync(join(dir, "solution.py"), "utf-8"))) {
    const tag = r.c.hidden ? " (hidden)" : "";
    console.log(`  ${r.ok ? "pass" : "FAIL"}  ${r.c.name}${tag}`);
    if (!r.ok) {
      problem(`reference fails "${r.c.name}"`);
      console.log(`        expected ${r.expected}\n        actual   ${r.actual}`);
    }
    if (printValues) console.log(`        value ${r.actual}`);
  }

  for (const file of listed.filter((f) => onDisk.includes(f))) {
    const results = runAll(readFileSync(join(dir, file), "utf-8"));
    const caught = results.filter((r) => !r.ok);
    console.log(`-- ${file}: fails ${caught.length}/${results.length}`);
    for (const r of caught) {
      console.log(`  caught by ${r.c.hidden ? "hidden" : "visible"} "${r.c.name}"`);
      console.log(`        actual ${r.actual}`);
    }
    if (caught.length === 0) problem(`${file} passes every case`);
  }
}

console.log(failed ? "\nFAILED" : "\nOK");
process.exit(failed ? 1 : 0);
