// Makes the memory snapshot the site ships (loopcraft/site/snapshot.py runs it as the site is built): Python started and
// the grader imported, exactly as a page's own start makes one (src/worker-core.js, snapshotPython), from the Pyodide
// files the site ships, written without its zero pages (src/snapshot-format.js). A page restores it on a first visit.
//
// Arguments: --pyodide DIR (Pyodide's files), --grader-root DIR, --grader-files LIST (comma-separated paths from DIR,
// as for node-runner.mjs), --out FILE.
//
// Reproducible: the same Pyodide and grader give the same bytes, on any machine. Python's start draws random bytes
// (its str hash secret, `random`'s first seed, an allocator's key) and reads the clock (file times, module-level
// timestamps); in this process, which makes the snapshot and ends, both are fixed. What a restore needs fresh is made
// afresh after it (`random` is seeded again: worker-core.js, boot); str hashes keep the fixed secret, as every restore
// of any one snapshot shares its maker's (now every learner's and every build's alike).
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { cliOptions } from "./cli-options.mjs";
import { sparse } from "./src/snapshot-format.js";
import { snapshotPython } from "./src/worker-core.js";

const required = ["pyodide", "grader-root", "grader-files", "out"];
const values = cliOptions("snapshot-maker.mjs", Object.fromEntries(required.map((name) => [name, { type: "string" }])), required);

// Emscripten's randomness under Node is node:crypto's randomFillSync, looked up on each call; its clocks are Date.now
// and performance.now.
let state = 0x2545f491;
createRequire(import.meta.url)("node:crypto").randomFillSync = (view) => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state ^= state << 13; // xorshift32
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state;
  }
  return view;
};
const EPOCH = Date.UTC(2026, 0, 1);
Date.now = () => EPOCH;
performance.now = () => 0;

const { loadPyodide } = await import(pathToFileURL(`${values.pyodide}/pyodide.mjs`).href);
const root = pathToFileURL(`${values["grader-root"]}/`);
const graderFiles = Promise.all(
  values["grader-files"].split(",").map(async (path) => ({ path, text: await readFile(new URL(path, root), "utf8") })),
);
const snapshot = await snapshotPython((options) => loadPyodide({ ...options, indexURL: `${values.pyodide}/` }), graderFiles);
writeFileSync(values.out, sparse(snapshot));
process.exit(0); // Pyodide may leave timers behind: nothing is left to do
