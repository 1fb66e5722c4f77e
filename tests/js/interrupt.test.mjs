// The interrupt buffer as Pyodide sees it (worker-core.js takeOnRead): the driver stores the seq of the last case it
// interrupted; the case running gets SIGINT once when the buffer names it or a later case, and no other case gets it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { takeOnRead } from "../../frontend/src/worker-core.js";

const SIGINT = 2;

function worker() {
  const buffer = new Int32Array(new SharedArrayBuffer(4));
  const state = { running: 0 };
  return { buffer, state, view: takeOnRead(buffer, () => state.running) };
}

test("the case running takes the interrupt that names it, once", () => {
  const { buffer, state, view } = worker();
  state.running = 3;
  assert.equal(view[0], 0);
  Atomics.store(buffer, 0, 3);
  assert.equal(view[0], SIGINT);
  assert.equal(view[0], 0, "a second KeyboardInterrupt in the same case");
});

test("an interrupt meant for a case that has finished never reaches the next one", () => {
  const { buffer, state, view } = worker();
  state.running = 4;
  Atomics.store(buffer, 0, 3); // stored for case 3 just after it answered: case 4 has started
  assert.equal(view[0], 0);
  state.running = 0;
  assert.equal(view[0], 0, "nothing is interrupted between cases");
});

test("a stop names the last case sent, so whichever of them runs is interrupted", () => {
  const { buffer, state, view } = worker();
  state.running = 5;
  Atomics.store(buffer, 0, 9);
  assert.equal(view[0], SIGINT);
});

test("an interrupt stored between Pyodide's read and its clearing write is kept for the next check", () => {
  // Pyodide's check, step by step: `let result = buffer[0]; buffer[0] = 0; return result`.
  const { buffer, state, view } = worker();
  state.running = 2;
  const first = view[0];
  Atomics.store(buffer, 0, 2); // the driver's interrupt lands here
  view[0] = 0;
  assert.equal(first, 0);
  assert.equal(view[0], SIGINT, "the interrupt was lost");
});
