// The form memory snapshots are kept and shipped in (frontend/src/snapshot-format.js): without their pages of zeros,
// made whole again byte for byte, and refused when damaged rather than restored wrong.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sparse, whole } from "../../frontend/src/snapshot-format.js";

const PAGE = 4096;
// Five pages and a short last one: written, zeros, written at its last byte only, zeros, zeros, written.
function snapshot() {
  const bytes = new Uint8Array(5 * PAGE + 8);
  bytes.fill(7, 0, PAGE);
  bytes[3 * PAGE - 1] = 1;
  bytes[5 * PAGE + 3] = 9;
  return bytes;
}

test("a snapshot comes back whole, without the pages of zeros it was kept without", () => {
  const stored = sparse(snapshot());
  assert.equal(stored.length, 4 + 6 + 2 * PAGE + 8); // its length, a byte a page, the three pages written
  assert.deepEqual(whole(stored.buffer), snapshot());
  assert.deepEqual(whole(stored), snapshot()); // from a view too, as Node reads a file
});

test("a snapshot cut short, grown or with no pages at all is refused", () => {
  const stored = sparse(snapshot());
  for (const damaged of [stored.slice(0, -1), new Uint8Array([...stored, 0]), stored.slice(0, 3), stored.slice(0, 6)]) {
    assert.throws(() => whole(damaged.buffer), /damaged/);
  }
});
