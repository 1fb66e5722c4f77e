// The editor's indent unit, read from the code the learner starts from (frontend/src/indent.js).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { DEFAULT_UNIT, indentUnitOf } from "../../frontend/src/indent.js";

test("every starter of the course indents by 4 spaces", () => {
  const track = new URL("../../exercises/build-an-agent/", import.meta.url);
  const starters = readdirSync(track).map((name) => new URL(`${name}/starter.py`, track)).filter(existsSync);
  assert.ok(starters.length > 0);
  for (const starter of starters) assert.equal(indentUnitOf(readFileSync(starter, "utf8")), "    ", starter.pathname);
});

test("the step from a line opening a block to the block's first line", () => {
  assert.equal(indentUnitOf("def f(x):\n  if x:  # a comment\n    return 1\n  return 2\n"), "  ");
  assert.equal(indentUnitOf("def f(x):\n\treturn x\n"), "\t");
  // Blank lines and comments between are skipped; a continuation line that is not a block is no step.
  assert.equal(indentUnitOf("def f():\n\n    # first\n    xs = [1,\n          2]\n    return xs\n"), "    ");
});

test("the most common step wins; a tie, mixed tabs and spaces, or no block at all gives 4 spaces", () => {
  const docstring = 'def f():\n    """Args:\n      x: a thing"""\n    if x:\n        return 1\n    for y in x:\n        pass\n';
  assert.equal(indentUnitOf(docstring), "    ");
  assert.equal(indentUnitOf("if a:\n  b\nif c:\n    d\n"), DEFAULT_UNIT);
  assert.equal(indentUnitOf("if a:\n\t  b\n"), DEFAULT_UNIT);
  assert.equal(indentUnitOf("print(1)\nx = 2\n"), DEFAULT_UNIT);
  assert.equal(indentUnitOf(""), DEFAULT_UNIT);
});
