// How deep a block of Python code is indented, read from code the learner starts from (a starter, a lesson's
// block): the editor then indents as that code does. A learner who types into a 4-space starter with an editor
// that indents by 2 gets "unindent does not match any outer indentation level".

export const DEFAULT_UNIT = "    "; // PEP 8's, and every starter's

// A wrapped line of code or of a value goes on this many columns past its own indentation (the editor's wrap.js,
// the results' values): at column 0 it would read as a new, unindented line. Two columns are no indent unit, so
// the rest never looks like a nested block either.
export const HANG = 2;

// A line that opens a block: it ends with a colon, a comment after it allowed.
const OPENS_BLOCK = /:\s*(#.*)?$/;
const leading = (line) => /^[ \t]*/.exec(line)[0];
const isCode = (line) => !/^\s*(#|$)/.test(line);

/**
 * The indent unit of `text` ("    ", "  ", "\t"...): the step from a line that opens a block to the first line
 * of that block; the most common step when they differ (a docstring's "Args:" line is outvoted by the code's own
 * blocks), DEFAULT_UNIT on a tie or when no block is opened.
 */
export function indentUnitOf(text) {
  const votes = new Map();
  let previous = null;
  for (const line of text.split("\n").filter(isCode)) {
    const own = leading(line);
    if (previous !== null && OPENS_BLOCK.test(previous) && own.startsWith(leading(previous))) {
      const step = own.slice(leading(previous).length);
      if (step) votes.set(step, (votes.get(step) ?? 0) + 1);
    }
    previous = line;
  }
  let unit = DEFAULT_UNIT;
  for (const [step, count] of votes) if (count > (votes.get(unit) ?? 0)) unit = step;
  // A step of tabs and spaces mixed is no unit an editor can keep.
  return /^( +|\t)$/.test(unit) ? unit : DEFAULT_UNIT;
}
