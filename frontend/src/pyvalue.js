// Python's view of a JSON value, for the page's judge and its displays. JSON.parse loses what Python keeps:
// ints beyond 2**53, an int from a float (1e300 would read as an int), and key order (integer-like keys jump
// first in a JavaScript object; `key in object` finds "toString"). So canonical JSON (grader/canonical.py) is
// parsed into: null, booleans, strings, BigInt for int, PyFloat for float, arrays, and Map for dict (keys in
// the canonical order, which is Python's: by code point). tests/test_judge_agreement.py holds the messages
// and reprs made from these to grader/judge.py's and Python's own repr on generated values.

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

export const isDict = (v) => v instanceof Map || (v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat));
/** A dict's entries in Python's order; plain objects (trace events) are sorted as canonical JSON would be. */
export const entriesOf = (v) => (v instanceof Map ? [...v] : Object.keys(v).sort(byCodePoint).map((k) => [k, v[k]]));

export function typePhrase(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return "a bool";
  if (typeof value === "bigint") return "an int";
  if (value instanceof PyFloat) return "a float";
  if (typeof value === "number") return Number.isInteger(value) ? "an int" : "a float";
  if (typeof value === "string") return "a string";
  if (Array.isArray(value)) return "a list";
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
  return "{" + entriesOf(value).map(([k, v]) => `${stringRepr(k)}: ${repr(v)}`).join(", ") + "}";
}
