// Python-style pretty-printing of values (Python-typed, see pyvalue.js), with the differences between an
// expected and an actual value marked line by line, where the judge's walk (judge.js diff) found them. Learners
// write Python, so None/True/False and quoted keys read better than JSON here; each line is Python's repr of what
// it shows.

import { entriesOf, isDict, keyRepr, PyDict, PySet, repr, stringRepr } from "./pyvalue.js";

export { repr };

// Expected and actual sit side by side in half a column: keep lines short.
const WIDTH = 40;
const INDENT = "  ";

/**
 * Lines of a pretty-printed value: [{text, mark}], mark being null or one of "changed", "missing", "unexpected".
 * `node`: judge.js diff's of the two values, or null; `side` is "expected" or "actual": a missing key is marked
 * only in the expected pane, an unexpected one only in the actual pane.
 */
export function prettyLines(value, node = null, side = "expected") {
  // The root itself is never marked: the message already says the value differs.
  return render(value, node && node.children ? node : null, side, "", "", "", null);
}

// [child key in the diff, prefix, item] of a container: a list's items by index, a dict's by its key's value text
// (PyDict) or its str key (a trace's plain object), a set's members unprefixed.
function itemsOf(value) {
  if (Array.isArray(value)) return value.map((item, i) => [i, "", item]);
  if (value instanceof PySet) return value.items.map((item) => [null, "", item]);
  if (value instanceof PyDict) return value.entries.map(([key, item, text]) => [text, `${keyRepr(key)}: `, item]);
  return entriesOf(value).map(([key, item]) => [key, `${stringRepr(key)}: `, item]);
}

function render(value, node, side, indent, prefix, suffix, mark) {
  const flat = indent + prefix + repr(value) + suffix;
  const set = value instanceof PySet;
  const container = Array.isArray(value) || isDict(value) || set;
  const items = container ? itemsOf(value) : [];
  // Keep a container on one line when it is short and has nothing marked inside.
  if (!container || (!node && flat.length <= WIDTH) || !items.length) return [{ text: flat, mark }];
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  const lines = [{ text: indent + prefix + open, mark }];
  items.forEach(([at, itemPrefix, item], i) => {
    const child = node && at !== null ? node.children.get(at) ?? null : null;
    const comma = i < items.length - 1 ? "," : "";
    const own = mark ?? markFor(child, side);
    lines.push(...render(item, child?.children ? child : null, side, indent + INDENT, itemPrefix, comma, own));
  });
  lines.push({ text: indent + close + suffix, mark });
  return lines;
}

function markFor(node, side) {
  // A set whose members differ (judge.js diff: {missing, unexpected}) is marked as a whole.
  if (node === "changed" || (node && node.missing)) return "changed";
  if (node === "missing" && side === "expected") return "missing";
  if (node === "unexpected" && side === "actual") return "unexpected";
  return null;
}
