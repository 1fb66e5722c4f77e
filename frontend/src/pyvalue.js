// Python's view of a JSON value, for the page's judge and its displays. JSON.parse loses what Python keeps:
// ints beyond 2**53, an int from a float (1e300 would read as an int), and key order (integer-like keys jump
// first in a JavaScript object; `key in object` finds "toString"). So canonical JSON (grader/canonical.py) is
// parsed into: null, booleans, strings, BigInt for int, PyFloat for float, arrays, and Map for dict (keys in
// the canonical order, which is Python's: by code point). valueOf reads the value text's tags too ($set, $dict), for
// the judge (judge.js), whose golden vectors (tests/js/judge.test.mjs) hold the messages and reprs made from these.

export class PyFloat {
  constructor(value) {
    this.value = value;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

/** Canonical JSON text -> a Python-typed value (see above). */
export function parsePy(text) {
  let at = 0;
  const fail = () => {
    throw new SyntaxError(`not canonical JSON at ${at}: ${text.slice(at, at + 20)}`);
  };
  const token = (pattern) => {
    pattern.lastIndex = at;
    const match = pattern.exec(text) ?? fail();
    at = pattern.lastIndex;
    return match;
  };
  const expect = (ch) => (text[at] === ch ? at++ : fail());
  function value() {
    const ch = text[at];
    if (ch === "{") {
      const dict = new Map();
      at++;
      while (text[at] !== "}") {
        if (dict.size) expect(",");
        const key = JSON.parse(token(STRING)[0]);
        expect(":");
        dict.set(key, value());
      }
      at++;
      return dict;
    }
    if (ch === "[") {
      const list = [];
      at++;
      while (text[at] !== "]") {
        if (list.length) expect(",");
        list.push(value());
      }
      at++;
      return list;
    }
    if (ch === '"') return JSON.parse(token(STRING)[0]);
    for (const [word, result] of [["null", null], ["true", true], ["false", false]]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return result;
      }
    }
    const [number, fraction, exponent] = token(NUMBER);
    return fraction || exponent ? new PyFloat(Number(number)) : BigInt(number);
  }
  const result = value();
  if (at !== text.length) fail();
  return result;
}

/** Sorts strings as Python does: by code point (JavaScript's < compares UTF-16 units). */
export function byCodePoint(a, b) {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

/** A set or frozenset of the value text ({"$set": [items]}), its items in the text's order. */
export class PySet {
  constructor(items) {
    this.items = items;
  }
}

/** A dict of the value text, of str keys (a JSON object) or of any keys ({"$dict": [[key, value], ...]}): `entries`
 * [key, value, keyText], in the text's order; keyText (the key's value text) is what two dicts' keys are matched by. */
export class PyDict {
  constructor(entries) {
    this.entries = entries;
  }
}

/** Python's json.dumps(text, ensure_ascii=True): what grader/canonical.py writes a str as. */
export const asciiJson = (text) =>
  JSON.stringify(text).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The value text of a value read by valueOf (for keys and set items: what they are matched by). */
export function valueText(value) {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return String(value);
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (typeof value === "string") return asciiJson(value);
  if (Array.isArray(value)) return `[${value.map(valueText).join(",")}]`;
  if (value instanceof PySet) return `{"$set":[${value.items.map(valueText).join(",")}]}`;
  const plain = value.entries.every(([key]) => typeof key === "string");
  if (plain && !(value.entries.length === 1 && value.entries[0][0].startsWith("$"))) {
    return `{${value.entries.map(([, item, keyText]) => `${keyText}:${valueText(item)}`).join(",")}}`;
  }
  return `{"$dict":[${value.entries.map(([key, item]) => `[${valueText(key)},${valueText(item)}]`).join(",")}]}`;
}

const isTag = (map) => map.size === 1 && [...map.keys()][0].startsWith("$");

function tagged(value) {
  if (Array.isArray(value)) return value.map(tagged);
  if (!(value instanceof Map)) return value;
  if (isTag(value) && value.has("$set")) return new PySet(value.get("$set").map(tagged));
  if (isTag(value) && value.has("$dict")) {
    return new PyDict(value.get("$dict").map(([key, item]) => {
      const k = tagged(key);
      return [k, tagged(item), valueText(k)];
    }));
  }
  return new PyDict([...value].map(([key, item]) => [key, tagged(item), asciiJson(key)]));
}

/** The VALUE TEXT (grader/canonical.py) -> a Python-typed value: parsePy's, with dicts as PyDict and sets as PySet
 * (a tuple is a list there already). */
export const valueOf = (text) => tagged(parsePy(text));

export const isDict = (v) => v instanceof PyDict || v instanceof Map ||
  (v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat) && !(v instanceof PySet));
/** A dict's entries [key, value] in Python's order; plain objects (trace events) are sorted as canonical JSON would
 * be. */
export const entriesOf = (v) => (v instanceof PyDict ? v.entries.map(([key, item]) => [key, item])
  : v instanceof Map ? [...v] : Object.keys(v).sort(byCodePoint).map((k) => [k, v[k]]));

export function typePhrase(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return "a bool";
  if (typeof value === "bigint") return "an int";
  if (value instanceof PyFloat) return "a float";
  if (typeof value === "number") return Number.isInteger(value) ? "an int" : "a float";
  if (typeof value === "string") return "a string";
  if (Array.isArray(value)) return "a list";
  if (value instanceof PySet) return "a set";
  return "a dict";
}

/** Python's repr of a float: the shortest round-trip digits, in exponent form below 1e-4 and from 1e16. */
export function floatRepr(x) {
  const [digits, exp] = x.toExponential().split("e");
  const e = Number(exp);
  const sign = digits.startsWith("-") ? "-" : "";
  const mantissa = digits.replace("-", "").replace(".", "");
  if (e < -4 || e >= 16) {
    const m = mantissa.length > 1 ? `${mantissa[0]}.${mantissa.slice(1)}` : mantissa;
    return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${mantissa}`;
  const whole = mantissa.slice(0, e + 1).padEnd(e + 1, "0");
  return `${sign}${whole}.${mantissa.slice(e + 1) || "0"}`;
}

// Python's str.isprintable(): these categories are escaped by repr (a plain space is printable).
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

export function stringRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && UNPRINTABLE.test(ch)) {
      const hex = code.toString(16);
      out += code < 0x100 ? `\\x${hex.padStart(2, "0")}` : code < 0x10000 ? `\\u${hex.padStart(4, "0")}` : `\\U${hex.padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

/** One-line Python repr of a value: Python-typed (parsePy) or plain JSON data (a trace's fields). */
export function repr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return stringRepr(value);
  if (typeof value === "bigint") return String(value);
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (Array.isArray(value)) return "[" + value.map(repr).join(", ") + "]";
  if (value instanceof PySet) return value.items.length ? "{" + value.items.map(keyRepr).join(", ") + "}" : "set()";
  return "{" + entriesOf(value).map(([k, v]) => `${keyRepr(k)}: ${repr(v)}`).join(", ") + "}";
}

/** Python's repr of a dict key or set item (valueOf's): what is hashable, so a list there was a tuple and a set a
 * frozenset. */
export function keyRepr(value) {
  if (Array.isArray(value)) return `(${value.map(keyRepr).join(", ")}${value.length === 1 ? "," : ""})`;
  if (value instanceof PySet) return value.items.length ? `frozenset({${value.items.map(keyRepr).join(", ")}})` : "frozenset()";
  return repr(value);
}
