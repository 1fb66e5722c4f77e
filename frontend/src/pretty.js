// Python-style pretty-printing of values (Python-typed, see pyvalue.js), with the differences between an
// expected and an actual value marked line by line. Learners write Python, so None/True/False and quoted
// keys read better than JSON here; each line is Python's repr of what it shows.

import { entriesOf, isDict, repr, stringRepr, typePhrase } from "./pyvalue.js";

export { repr };

// Expected and actual sit side by side in half a column: keep lines short.
const WIDTH = 40;
const INDENT = "  ";

/**
 * Where two values differ: null when equal, "changed" when they differ as a
 * whole, or {children: Map(key -> node | "missing" | "unexpected")} for dicts
 * and same-length lists whose items differ. Lists of different lengths count
 * as changed as a whole, as in the judge's messages.
 */
export function diff(expected, actual) {
  const kind = typePhrase(expected);
  if (kind !== typePhrase(actual)) return "changed";
  if (Array.isArray(expected)) {
    if (expected.length !== actual.length) return "changed";
    return collect(expected.map((item, i) => [i, diff(item, actual[i])]));
  }
  if (isDict(expected)) {
    const mine = new Map(entriesOf(expected));
    const theirs = new Map(entriesOf(actual));
    const keys = [...new Set([...mine.keys(), ...theirs.keys()])];
    return collect(keys.map((k) => [k,
      !theirs.has(k) ? "missing" : !mine.has(k) ? "unexpected" : diff(mine.get(k), theirs.get(k))]));
  }
  return repr(expected) === repr(actual) ? null : "changed";
}

function collect(entries) {
  const children = new Map(entries.filter(([, node]) => node !== null));
  return children.size ? { children } : null;
}

/**
 * Lines of a pretty-printed value: [{text, mark}], mark being null or one of
 * "changed", "missing", "unexpected". `side` is "expected" or "actual": a
 * missing key is marked only in the expected pane, an unexpected one only in
 * the actual pane.
 */
export function prettyLines(value, node = null, side = "expected") {
  // The root itself is never marked: the message already says the value differs.
  return render(value, node && node.children ? node : null, side, "", "", "", null);
}

function render(value, node, side, indent, prefix, suffix, mark) {
  const flat = indent + prefix + repr(value) + suffix;
  const container = Array.isArray(value) || isDict(value);
  // Keep a container on one line when it is short and has nothing marked inside.
  if (!container || (!node && flat.length <= WIDTH) || !sizeOf(value)) return [{ text: flat, mark }];
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  const items = Array.isArray(value) ? value.map((item, i) => [i, item]) : entriesOf(value);
  const lines = [{ text: indent + prefix + open, mark }];
  items.forEach(([key, item], i) => {
    const child = node ? node.children.get(key) ?? null : null;
    const itemPrefix = Array.isArray(value) ? "" : stringRepr(key) + ": ";
    const comma = i < items.length - 1 ? "," : "";
    const own = mark ?? markFor(child, side);
    lines.push(...render(item, typeof child === "object" ? child : null, side, indent + INDENT, itemPrefix, comma, own));
  });
  lines.push({ text: indent + close + suffix, mark });
  return lines;
}

function sizeOf(value) {
  return Array.isArray(value) ? value.length : entriesOf(value).length;
}

function markFor(node, side) {
  if (node === "changed") return "changed";
  if (node === "missing" && side === "expected") return "missing";
  if (node === "unexpected" && side === "actual") return "unexpected";
  return null;
}
