// Python-style pretty-printing of JSON values, with the differences between an
// expected and an actual value marked line by line. Learners write Python, so
// None/True/False and quoted keys read better than JSON here.

// Expected and actual sit side by side in half a column: keep lines short.
const WIDTH = 40;
const INDENT = "  ";

function isDict(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function kindOf(value) {
  if (value === null) return "none";
  if (Array.isArray(value)) return "list";
  return typeof value;
}

function reprString(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}

/** One-line Python repr of a JSON value. */
export function repr(value) {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return reprString(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return "[" + value.map(repr).join(", ") + "]";
  return "{" + Object.keys(value).sort().map((k) => `${reprString(k)}: ${repr(value[k])}`).join(", ") + "}";
}

/**
 * Where two values differ: null when equal, "changed" when they differ as a
 * whole, or {children: Map(key -> node | "missing" | "unexpected")} for dicts
 * and same-length lists whose items differ. Lists of different lengths count
 * as changed as a whole, as in the judge's messages.
 */
export function diff(expected, actual) {
  const kind = kindOf(expected);
  if (kind !== kindOf(actual)) return "changed";
  if (kind === "list") {
    if (expected.length !== actual.length) return "changed";
    return collect(expected.map((item, i) => [i, diff(item, actual[i])]));
  }
  if (kind === "object") {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    return collect(keys.map((k) => [k,
      !(k in actual) ? "missing" : !(k in expected) ? "unexpected" : diff(expected[k], actual[k])]));
  }
  return expected === actual ? null : "changed";
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
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value).sort();
  const lines = [{ text: indent + prefix + open, mark }];
  keys.forEach((key, i) => {
    const child = node ? node.children.get(key) ?? null : null;
    const itemPrefix = Array.isArray(value) ? "" : reprString(key) + ": ";
    const comma = i < keys.length - 1 ? "," : "";
    const own = mark ?? markFor(child, side);
    lines.push(...render(value[key], typeof child === "object" ? child : null, side,
      indent + INDENT, itemPrefix, comma, own));
  });
  lines.push({ text: indent + close + suffix, mark });
  return lines;
}

function sizeOf(value) {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

function markFor(node, side) {
  if (node === "changed") return "changed";
  if (node === "missing" && side === "expected") return "missing";
  if (node === "unexpected" && side === "actual") return "unexpected";
  return null;
}
