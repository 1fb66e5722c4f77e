// "Try your own scenario"'s arguments, written as in a Python call (frontend/src/pyliteral.js): every literal kind
// Python's ast.literal_eval takes, keyword and positional arguments, and what is wrong said at its line and column,
// hostile input included (deep nesting, huge numbers, unterminated strings), never a parser's raw message.
import assert from "node:assert/strict";
import { test } from "node:test";
import { asCall, bindArguments, LiteralError, MAX_DEPTH, parseArguments } from "../../frontend/src/pyliteral.js";

const PARAMETERS = ["task", "script", "max_steps"];
const call = (text) => ({ ...bindArguments(parseArguments(text), PARAMETERS) });
const plain = (value) => JSON.parse(JSON.stringify(value)); // as the arguments travel to Python
const refused = (text, message) => assert.throws(() => call(text), (err) => err instanceof LiteralError && message.test(err.message));

test("the README's example reads as keyword arguments, JSON inside a Python string needing no escapes", () => {
  assert.deepEqual(call(`task="1+2?", script=['{"tool": "add", "arguments": {"a": 1,}}', 'Done.']`), {
    task: "1+2?",
    script: ['{"tool": "add", "arguments": {"a": 1,}}', "Done."],
  });
});

test("positional arguments take the parameters' names in order, before keyword ones", () => {
  assert.deepEqual(call(`"hi", ["Done."], max_steps=3`), { task: "hi", script: ["Done."], max_steps: 3 });
  refused(`task="hi", ["Done."]`, /^Line 1, column 12: a positional argument cannot follow a keyword argument/);
  refused(`"hi", task="again"`, /task is given twice: by position and by name/);
  refused(`task="a", task="b"`, /^Line 1, column 11: task is given twice/);
  refused(`1, 2, 3, 4`, /4 positional arguments, but the function takes 3 \(task, script, max_steps\)/);
  assert.throws(() => bindArguments(parseArguments("1"), []), /Write each argument as name=value/);
});

test("every literal kind: str, int, float, bool, None, list, tuple, dict", () => {
  assert.deepEqual(plain(call(`task=[1, -2, 0x1F, 0o17, 0b101, 1_000, 2.5, -.5, 1e-3, True, False, None]`)).task,
    [1, -2, 31, 15, 5, 1000, 2.5, -0.5, 0.001, true, false, null]);
  assert.deepEqual(plain(call(`task=((), (1,), (1), (1, 2,), [], {}, {"a": [1, {"b": None}],})`)).task,
    [[], [1], 1, [1, 2], [], {}, { a: [1, { b: null }] }]);
  // Both quotes, triple quotes over lines, strings side by side, every escape Python has but \N.
  assert.equal(call(`task='it\\'s' "a" """b\n'c'"""`).task, "it'sab\n'c'");
  assert.equal(call(`task="\\n\\t\\\\\\x41\\u00e9\\U0001F600\\101\\0\\d"`).task, "\n\t\\Aé😀A\0\\d");
  assert.equal(call("task='😀 ünïcode'").task, "😀 ünïcode");
  // Whitespace, new lines and comments between arguments; a trailing comma.
  assert.deepEqual(call("task = 'a',  # the task\n  script = [\n    'b',\n  ],\n"), { task: "a", script: ["b"] });
  assert.deepEqual(call("   "), {});
});

test('a dict key "__proto__" is a key like any other, never the prototype', () => {
  const { task } = call(`task={"__proto__": 1, "constructor": 2}`);
  assert.deepEqual(Object.keys(task), ["__proto__", "constructor"]);
  assert.equal(JSON.stringify(task), '{"__proto__":1,"constructor":2}');
});

test("what JSON cannot carry to Python exactly is refused, in words", () => {
  refused("task=1.0", /^Line 1, column 6: 1\.0 would reach your function as the int 1/);
  refused("task=1e3", /1e3 would reach your function as the int 1000/);
  refused("task=9007199254740992", /too large to pass exactly: ints here go up to 9007199254740991/);
  assert.equal(call("task=-9007199254740991").task, -9007199254740991);
  refused("task={1: 'a'}", /^Line 1, column 7: a dict key must be a string here/);
  refused("task={1, 2}", /sets are not taken here/);
  refused("task=1j", /complex number/);
});

test("mistakes a learner makes are named, at their line and column", () => {
  refused("task=true", /^Line 1, column 6: true is not Python: write True\./);
  refused("task=null", /null is not Python: write None/);
  refused("task=hello", /hello is not a value: a string needs quotes \('hello'\)/);
  refused("task=len('a')", /len is not a value/);
  refused("task: 'a'", /^Line 1, column 1: write task=value, not task: value\./);
  refused("task='a' script=[]", /^Line 1, column 10: expected “,” between arguments, found “s”\./);
  refused("task=[1 2]", /^Line 1, column 9: expected “,” or “\]” in this list, found “2”\./);
  refused("task={'a' 1}", /expected “:” after this dict key, found “1”/);
  refused("task=", /expected a value \(a string in quotes, a number, True, False, None, a list, a tuple or a dict\), found the end of the text/);
  refused("task=012", /no leading zeros in an int \(write 12\)/);
  refused("task=f'x'", /strings with a prefix/);
  refused("task='\\x4'", /\\x must be followed by 2 hexadecimal digits/);
  refused("task='\\N{BULLET}'", /\\N\{…\} escapes are not taken here/);
  refused("task=12abc", /12a… is not a number/);
  refused("task=- 'a'", /expected a number after “-”/);
  refused("task='a',\n  script=[1,\n   oops]", /^Line 3, column 4: oops is not a value/);
});

test("unterminated strings and brackets are pointed at where they open", () => {
  refused("task='abc", /^Line 1, column 6: this string is never closed: end it with '\./);
  refused('task="abc\n"', /^Line 1, column 6: this string is never closed: end it with "\./);
  refused("task='''abc\n", /^Line 1, column 6: this string is never closed: end it with '''\./);
  refused("task='abc\\", /this string is never closed/);
  refused("task=[1, [2,", /^Line 1, column 10: this “\[” is never closed: end the list with “\]”\./);
  refused("task=(1,", /this “\(” is never closed: end the tuple with “\)”/);
  refused("task={'a': 1", /this “\{” is never closed: end the dict with “\}”/);
});

test("hostile input: deep nesting, huge numbers and long texts end in a message, never a stack overflow or a hang", () => {
  assert.equal(call(`task=${"[".repeat(MAX_DEPTH)}${"]".repeat(MAX_DEPTH)}`).task.length, 1);
  refused(`task=${"[".repeat(100_000)}`, new RegExp(`nested more than ${MAX_DEPTH} deep`));
  refused(`task=${"{'a': ".repeat(100_000)}`, new RegExp(`nested more than ${MAX_DEPTH} deep`));
  refused(`task=${"9".repeat(1_000_000)}`, /this 1000000-digit int is too large to pass exactly/);
  refused(`task=${"9".repeat(400)}.5`, /this float is too large for a float/);
  refused("task=1e999", /1e999 is too large for a float/);
  refused(`task='${"a".repeat(1_000_000)}`, /^Line 1, column 6: this string is never closed/);
  assert.equal(call(`task='${"\\x41".repeat(100_000)}'`).task.length, 100_000);
});

test("a case's arguments shown as Python (the box's examples) read back as the same arguments", () => {
  const args = { task: "it's \"quoted\"\n\ttabbed \\ 😀 \u0001", script: ['{"tool": "add", "arguments": {"a": 1}}', "Done."],
    max_steps: [-3, 2.5, 1e-7, 1.5e300, true, false, null, { "": [], "é": {} }] };
  assert.equal(asCall({ task: "a", script: ["b"] }), "task='a',\nscript=['b']");
  assert.deepEqual(plain(call(asCall(args))), args);
});
