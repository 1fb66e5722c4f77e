// A call's arguments written as Python writes them (`task="1+2?", script=['...'], max_steps=3`), read strictly:
// literals only (str, int, float, bool, None, list, tuple, dict), as Python's ast.literal_eval takes them, never
// evaluated. "Try your own scenario" (scenario.js) reads the learner's arguments with it; what is wrong is said in
// words, at its line and column. The values travel to Python as JSON, so what JSON cannot carry exactly is refused
// rather than changed on the way: an int beyond 2**53, a float with nothing after its point (2.0 would arrive as 2),
// a dict key that is not a string. A tuple arrives as a list, as in the cases.

import { repr } from "./pyvalue.js";

export const MAX_DEPTH = 100; // lists, tuples and dicts inside one another; deeper is refused, not a stack overflow
const MAX_INT = 2n ** 53n - 1n;

export class LiteralError extends Error {}

const VALUE = "a value (a string in quotes, a number, True, False, None, a list, a tuple or a dict)";
const ESCAPES = { "\\": "\\", "'": "'", '"': '"', n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v" };
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*)?(?:\.(?:\d(?:_?\d)*)?)?(?:[eE][-+]?\d(?:_?\d)*)?)[jJ]?/y;
const MISTAKEN_NAMES = { true: "True", false: "False", null: "None", none: "None", nil: "None", undefined: "None" };

/**
 * The arguments of `text`: {positional: [value], keyword: [[name, value]]} in the order written. Throws a
 * LiteralError saying where and what is wrong.
 */
export function parseArguments(text) {
  let at = 0;
  const positional = [];
  const keyword = [];

  function where(offset) {
    const before = text.slice(0, offset).split("\n");
    return `Line ${before.length}, column ${[...before.at(-1)].length + 1}`;
  }
  const fail = (message, offset = at) => {
    throw new LiteralError(`${where(offset)}: ${message}`);
  };
  const found = () => (at >= text.length ? "the end of the text" : `“${[...text.slice(at, at + 12)][0]}”`);
  function skip() {
    for (;;) {
      while (at < text.length && " \t\r\n\f".includes(text[at])) at += 1;
      if (text[at] !== "#") return;
      while (at < text.length && text[at] !== "\n") at += 1;
    }
  }
  const match = (pattern) => {
    pattern.lastIndex = at;
    return pattern.exec(text)?.[0] ?? null;
  };

  function value(depth) {
    skip();
    const start = at;
    const ch = text[at];
    if (ch === "'" || ch === '"') {
      let joined = string();
      // Strings side by side are one string, as in Python.
      for (skip(); text[at] === "'" || text[at] === '"'; skip()) joined += string();
      return joined;
    }
    if (ch === "[" || ch === "(" || ch === "{") {
      if (depth >= MAX_DEPTH) fail(`lists, tuples and dicts are nested more than ${MAX_DEPTH} deep here.`);
      at += 1;
      return ch === "[" ? list(depth + 1, start) : ch === "(" ? tuple(depth + 1, start) : dict(depth + 1, start);
    }
    if (ch === "-" || ch === "+") {
      at += 1;
      skip();
      if (!/[0-9.]/.test(text[at] ?? "")) fail(`expected a number after “${ch}”, found ${found()}.`);
      return number(ch === "-");
    }
    if (/[0-9.]/.test(ch ?? "")) return number(false);
    const name = match(NAME);
    if (name !== null) {
      at += name.length;
      if (name === "True") return true;
      if (name === "False") return false;
      if (name === "None") return null;
      if (/^[rRbBuUfF]{1,2}$/.test(name) && (text[at] === "'" || text[at] === '"')) {
        fail(`strings with a prefix (${name}'…') are not taken here: write a plain string in quotes.`, start);
      }
      const meant = Object.hasOwn(MISTAKEN_NAMES, name.toLowerCase()) && MISTAKEN_NAMES[name.toLowerCase()];
      fail(meant ? `${name} is not Python: write ${meant}.`
        : `${name} is not a value: a string needs quotes ('${name}'), and only literals are taken, no names or calls.`, start);
    }
    fail(`expected ${VALUE}, found ${found()}.`);
  }

  function string() {
    const start = at;
    const quote = text.startsWith(text[at].repeat(3), at) ? text[at].repeat(3) : text[at];
    at += quote.length;
    let out = "";
    for (;;) {
      if (at >= text.length || (quote.length === 1 && text[at] === "\n")) {
        fail(`this string is never closed: end it with ${quote}.`, start);
      }
      if (text.startsWith(quote, at)) {
        at += quote.length;
        return out;
      }
      if (text[at] !== "\\") {
        const code = text.codePointAt(at);
        out += String.fromCodePoint(code);
        at += code > 0xffff ? 2 : 1;
        continue;
      }
      const escape = text[at + 1];
      at += 2;
      if (escape === undefined) fail(`this string is never closed: end it with ${quote}.`, start);
      else if (escape === "\n") continue; // a backslash at the end of a line joins the next
      else if (Object.hasOwn(ESCAPES, escape)) out += ESCAPES[escape];
      else if (/[0-7]/.test(escape)) {
        const digits = escape + (text.slice(at, at + 2).match(/^[0-7]{0,2}/)[0]);
        at += digits.length - 1;
        out += String.fromCodePoint(Number.parseInt(digits, 8));
      } else if (escape === "x" || escape === "u" || escape === "U") {
        const size = { x: 2, u: 4, U: 8 }[escape];
        const hex = text.slice(at, at + size);
        if (!new RegExp(`^[0-9a-fA-F]{${size}}$`).test(hex)) {
          fail(`\\${escape} must be followed by ${size} hexadecimal digits.`, at - 2);
        }
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff) fail(`\\${escape}${hex} is beyond the last Unicode character.`, at - 2);
        out += String.fromCodePoint(code);
        at += size;
      } else if (escape === "N") fail("\\N{…} escapes are not taken here: write the character itself.", at - 2);
      else out += `\\${escape}`; // as Python keeps an unknown escape
    }
  }

  function number(negative) {
    const start = at;
    const literal = match(NUMBER);
    if (!literal || literal === ".") fail(`expected ${VALUE}, found ${found()}.`);
    at += literal.length;
    if (/[A-Za-z0-9_]/.test(text[at] ?? "")) fail(`${literal}${text[at]}… is not a number.`, start);
    if (/[jJ]$/.test(literal)) fail(`${literal} is a complex number: only int and float are taken here.`, start);
    const plain = literal.replaceAll("_", "");
    if (/^0[xXoObB]/.test(plain) || /^\d+$/.test(plain)) {
      if (/^0\d/.test(plain) && /[1-9]/.test(plain)) {
        fail(`${literal}: Python allows no leading zeros in an int (write ${plain.replace(/^0+/, "")}).`, start);
      }
      // A count of digits first, so a huge one is refused without converting it.
      const big = plain.length > 64 ? MAX_INT + 1n : BigInt(plain);
      if (big > MAX_INT) {
        fail(`${literal.length > 24 ? `this ${literal.length}-digit int` : literal} is too large to pass exactly: `
          + `ints here go up to ${MAX_INT} either way.`, start);
      }
      return negative ? -Number(big) : Number(big);
    }
    const float = Number(plain);
    if (!Number.isFinite(float)) fail(`${literal.length > 24 ? "this float" : literal} is too large for a float.`, start);
    // JSON.stringify writes such a float as an int below 1e21, where Python's json reads it as one.
    if (Number.isInteger(float) && Math.abs(float) < 1e21) {
      fail(`${literal} would reach your function as the int ${BigInt(float)}: the arguments travel as JSON, `
        + "which cannot tell a float with nothing after its point from an int. Write the int, or a float with a fraction.", start);
    }
    return negative ? -float : float;
  }

  // Items up to `close`, comma-separated, a trailing comma allowed; `item()` reads one. Returns the commas read.
  function items(start, close, what, item) {
    let commas = 0;
    for (;;) {
      skip();
      if (at >= text.length) fail(`this “${text[start]}” is never closed: end the ${what} with “${close}”.`, start);
      if (text[at] === close) {
        at += 1;
        return commas;
      }
      item();
      skip();
      if (text[at] === ",") {
        at += 1;
        commas += 1;
      } else if (at < text.length && text[at] !== close) fail(`expected “,” or “${close}” in this ${what}, found ${found()}.`);
    }
  }

  function list(depth, start) {
    const out = [];
    items(start, "]", "list", () => out.push(value(depth)));
    return out;
  }

  function tuple(depth, start) {
    const out = [];
    const commas = items(start, ")", "tuple", () => out.push(value(depth)));
    // (x) is x in brackets; (x,) and () are tuples, passed on as lists.
    return out.length === 1 && commas === 0 ? out[0] : out;
  }

  function dict(depth, start) {
    const out = Object.create(null); // no prototype: a "__proto__" key is a key like any other
    let first = true;
    items(start, "}", "dict", () => {
      const keyAt = at;
      const key = value(depth);
      skip();
      if (text[at] !== ":") {
        fail(first && (text[at] === "," || text[at] === "}") ? "sets are not taken here: a dict needs key: value pairs."
          : `expected “:” after this dict key, found ${found()}.`);
      }
      if (typeof key !== "string") {
        fail("a dict key must be a string here: the arguments travel as JSON, whose keys are strings.", keyAt);
      }
      at += 1;
      out[key] = value(depth);
      first = false;
    });
    return out;
  }

  skip();
  while (at < text.length) {
    const start = at;
    const name = match(NAME);
    let rest = at + (name?.length ?? 0);
    while (" \t\r\n".includes(text[rest] ?? "x")) rest += 1;
    if (name !== null && text[rest] === "=" && text[rest + 1] !== "=") {
      if (keyword.some(([seen]) => seen === name)) fail(`${name} is given twice.`, start);
      at = rest + 1;
      keyword.push([name, value(0)]);
    } else if (name !== null && text[rest] === ":") {
      fail(`write ${name}=value, not ${name}: value.`, start);
    } else {
      if (keyword.length) fail("a positional argument cannot follow a keyword argument (name=value).", start);
      positional.push(value(0));
    }
    skip();
    if (at >= text.length) break;
    if (text[at] !== ",") {
      fail(`expected “,” between arguments, found ${found()}.`);
    }
    at += 1;
    skip();
  }
  return { positional, keyword };
}

/**
 * The arguments {name: value} of a call to a function whose positional parameters are `parameters` (in order):
 * each positional argument takes the next parameter's name. Throws a LiteralError on one too many or given twice.
 */
export function bindArguments({ positional, keyword }, parameters) {
  if (positional.length > parameters.length) {
    throw new LiteralError(parameters.length
      ? `${positional.length} positional arguments, but the function takes ${parameters.length} (${parameters.join(", ")}).`
      : "Write each argument as name=value.");
  }
  const bound = Object.create(null);
  positional.forEach((value, i) => (bound[parameters[i]] = value));
  for (const [name, value] of keyword) {
    if (name in bound) throw new LiteralError(`${name} is given twice: by position and by name.`);
    bound[name] = value;
  }
  return bound;
}

/** Arguments {name: value} as a call's text, one `name=value` a line, values as Python writes them: what
 * parseArguments reads back as the same arguments. */
export const asCall = (args) => Object.entries(args).map(([name, value]) => `${name}=${repr(value)}`).join(",\n");
