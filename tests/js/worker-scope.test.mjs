// What worker-core.js leaves of JavaScript's ways to turn text into code in the worker's global scope
// (closeCodeFromText), and what Pyodide itself uses of Function still working.
import assert from "node:assert/strict";
import { test } from "node:test";
import { closeCodeFromText } from "../../frontend/src/worker-core.js";

test("no text becomes code, and Function still answers instanceof and lends its prototype", async () => {
  const scope = { Function, setTimeout, setInterval, WebSocket: class {} };
  closeCodeFromText(scope);
  assert.equal("WebSocket" in scope, false);
  assert.throws(() => scope.Function("return globalThis"), EvalError);
  assert.throws(() => new scope.Function("return globalThis"), EvalError);
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    assert.equal(fn.constructor, undefined);
  }
  assert.ok((() => {}) instanceof scope.Function);
  assert.equal(scope.Function.prototype.apply, Function.prototype.apply);
  assert.throws(() => scope.setTimeout("globalThis.ran = true"), TypeError);
  assert.throws(() => scope.setInterval("globalThis.ran = true"), TypeError);
  await new Promise((resolve) => scope.setTimeout(resolve, 1));
});
