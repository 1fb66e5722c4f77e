// The interrupt buffer as Pyodide sees it (worker-core.js takeOnRead): a SIGINT stored while Pyodide is between
// reading the buffer and clearing it must survive, so the next check raises KeyboardInterrupt.
import assert from "node:assert/strict";
import { test } from "node:test";
import { takeOnRead } from "../../frontend/src/worker-core.js";

const SIGINT = 2;

test("reading the view takes the signal and clears the buffer", () => {
  const buffer = new Int32Array(new SharedArrayBuffer(4));
  const view = takeOnRead(buffer);
  assert.equal(view[0], 0);
  Atomics.store(buffer, 0, SIGINT);
  assert.equal(view[0], SIGINT);
  assert.equal(Atomics.load(buffer, 0), 0);
  assert.equal(view[0], 0);
});

test("a signal stored between Pyodide's read and its clearing write is kept for the next check", () => {
  // Pyodide's check, step by step: `let result = buffer[0]; buffer[0] = 0; return result`.
  const buffer = new Int32Array(new SharedArrayBuffer(4));
  const view = takeOnRead(buffer);
  const first = view[0];
  Atomics.store(buffer, 0, SIGINT); // the driver's interrupt lands here
  view[0] = 0;
  assert.equal(first, 0);
  assert.equal(view[0], SIGINT, "the interrupt was lost");
});
