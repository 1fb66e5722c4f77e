// The results list: one card per case, filled in as each case is graded. A card is a disclosure: a passing
// case shows as one line (its name and badge), one that does not pass opens on what went wrong.
// Everything learner-produced is inserted as text (see dom.js).
import { h, withCode } from "./dom.js";
import { prettyLines } from "./pretty.js";
import { valueOf } from "./pyvalue.js";
import { renderTrace } from "./trace.js";
import { diff, timeoutMessage } from "./judge.js";
import { passed } from "./verdict.js";
import { HANG } from "./indent.js";
import { said } from "./mistakes.js";

const BADGES = {
  pending: "Waiting",
  running: "Running",
  pass: "Passed",
  fail: "Failed",
  error: "Error",
  timeout: "Timed out",
  "not-run": "Not run",
};

const SCROLL_MARGIN = 8; // px above a card scrolled to

const MARK_LABELS = {
  changed: "differs",
  missing: "missing from your result",
  unexpected: "not expected",
};

/**
 * container: the results element. Returns the functions the page calls during a run.
 */
export function createResults(container) {
  let rows = [];

  return {
    /** Replaces the list with one pending row per case. */
    start(cases) {
      rows = cases.map((c, index) => createRow(c, index));
      container.replaceChildren(...rows.map((row) => row.element));
    },
    running(index) {
      setStatus(rows[index], "running");
    },
    /** The body of a case's card, made as soon as its verdict is in (while the next case runs, not when the page
     * draws): result, the judge's verdict; values, the value texts of its expected and actual values ({expected,
     * actual}, each null where there is none), for a visible case. */
    body: (testCase, result, values) => renderBody(testCase, result, values).filter(Boolean), // parts left out are null
    /** Puts the verdict of the case at index, and its body (above), in its card. */
    show(index, result, body) {
      const row = rows[index];
      setStatus(row, result.status);
      row.body.replaceChildren(...body);
      row.card.open = !passed(result);
    },
    /** The run ended before these rows' cases got a verdict: they say "Not run" (the page says why, once). */
    notRun() {
      for (const row of rows) {
        if (row.status !== "pending" && row.status !== "running") continue;
        setStatus(row, "not-run");
        row.body.replaceChildren();
      }
    },
    /** The card of case `index`, opened and scrolled to the top of the results' scroller; `focus` moves the keyboard
     * to it too. */
    reveal(index, { focus = false } = {}) {
      const row = rows[index];
      row.card.open = true;
      scrollToTop(row.element);
      if (focus) row.head.focus({ preventScroll: true });
    },
    /** The id of case `index`'s card, for links to it. */
    anchor: (index) => rows[index].element.id,
    /** The run stopped early (e.g. Python failed to load): the rows left say why. */
    abort(message) {
      for (const row of rows) {
        if (row.status !== "pending" && row.status !== "running") continue;
        setStatus(row, "error");
        row.body.replaceChildren(h("p", { class: "case-message", "data-testid": "message" }, message));
        row.card.open = true;
      }
    },
  };
}

/** The status's words on the known mistakes a run looks like (run-state.js mistakesOf): one sentence each, a hint
 * as its author wrote it, as text; each on a line of its own, and after a space, as its text is read out. */
export function mistakeNotes(hints) {
  return hints.flatMap((hint) => [" ", h("span", { class: "known-mistake", "data-testid": "known-mistake" }, withCode(said(hint)))]);
}

/** A finished case as the results list shows it, for pages that show results made elsewhere (a learner's
 * feedback page from the class's grading run): testCase {name, hidden, private, input_text}, result and values
 * as for body(). Open, whatever its status: such a page is read through, not run. */
export function resultRow(testCase, result, values) {
  const row = createRow(testCase);
  setStatus(row, result.status);
  row.body.replaceChildren(...renderBody(testCase, result, values).filter(Boolean));
  row.card.open = true;
  return row.element;
}

// Scrolls the nearest scroller that holds `element` (the workbench on a wide screen, the page on a phone), and only
// that one, so that the element's top shows at its top: element.scrollIntoView would move the page too.
function scrollToTop(element) {
  let scroller = element.parentElement;
  while (scroller && !(scroller.scrollHeight > scroller.clientHeight && /auto|scroll/.test(getComputedStyle(scroller).overflowY))) {
    scroller = scroller.parentElement;
  }
  scroller ??= document.scrollingElement;
  const top = scroller === document.scrollingElement ? 0 : scroller.getBoundingClientRect().top;
  const behavior = matchMedia("(prefers-reduced-motion: reduce)").matches ? "instant" : "smooth";
  scroller.scrollTo({ top: scroller.scrollTop + element.getBoundingClientRect().top - top - SCROLL_MARGIN, behavior });
}

// `index`: the case's place in a run, which names its card (case-1, ...) for the status's links to it.
function createRow(testCase, index = null) {
  const badge = h("span", { class: "badge" });
  const body = h("div", { class: "case-body" });
  const head = h("summary", { class: "case-head" },
    badge,
    h("span", { class: "case-name" }, testCase.name),
    testCase.hidden ? h("span", { class: "case-tag" }, testCase.private ? "private" : "hidden") : null);
  const card = h("details", { class: "case-card" }, head, body);
  const element = h("li", { class: "case", id: index === null ? null : `case-${index + 1}`, "data-testid": "case",
    "data-name": testCase.name, "data-hidden": String(Boolean(testCase.hidden)) }, card);
  const row = { element, card, head, badge, body, testCase, status: null };
  setStatus(row, "pending");
  return row;
}

function setStatus(row, status) {
  row.status = status;
  row.element.dataset.status = status;
  row.badge.textContent = BADGES[status];
}

function renderBody(testCase, result, values) {
  const parts = [];
  if (result.message) {
    // Tracebacks keep their layout; one-line verdicts read better as prose.
    const tag = result.status === "error" ? "pre" : "p";
    parts.push(h(tag, { class: `case-message${tag === "pre" ? " traceback" : ""}`, "data-testid": "message" },
      result.message));
  }
  // A hidden case: its verdict, its error and its trace (input and returned value included), never its expected value
  // nor its output: what templates/challenge.html says of hidden cases, word for word.
  if (result.hidden) return [...parts, renderTrace(result.trace)];

  // The case as the learner would write it, and both sides as Python writes them; where the values differ inside,
  // they are laid out line by line with the judge's differences marked.
  const { expected, actual } = shownValues(testCase, result, values);
  const printed = result.expected_stdout !== undefined && result.expected_stdout !== null;
  // What input() read in the case (a program's), as its run spec gives it: a program's call alone says nothing.
  const stdin = testCase.run?.stdin;
  parts.push(h("div", { class: "case-io" },
    pane("Call", "call", unmarked(result.call_shown || testCase.input_text)),
    typeof stdin === "string" ? pane("Input (what input() reads)", "stdin", unmarked(stdin)) : null,
    expected ? pane("Expected", "expected", expected) : null,
    // A case that checks only printed text checks no return value: what came back (None, mostly) is not shown.
    actual && (expected || !printed) ? pane("Your result", "actual", actual) : null,
    printed ? pane("Expected output", "expected-stdout", unmarked(result.expected_stdout)) : null,
    printed ? pane("Your output", "actual-stdout", unmarked(result.stdout ?? "")) : null));

  const marks = new Set([...(expected ?? []), ...(actual ?? [])].map((line) => line.mark).filter(Boolean));
  if (marks.size) {
    parts.push(h("p", { class: "legend" }, "Highlighted: ",
      [...marks].map((mark) => h("mark", { class: `diff diff-${mark}` }, MARK_LABELS[mark]))));
  }
  parts.push(renderTrace(result.trace));
  // What the case printed is already beside the expected text, unless more was printed than the case compares.
  if (!printed || result.output !== result.stdout) parts.push(output(result.output, !passed(result)));
  return parts;
}

/** The parts showing what one ungraded run (the learner's own scenario) did: no verdict, no expected value. */
export function renderScenarioResult(outcome, timeLimit) {
  const parts = [];
  if (outcome.kind === "value") {
    parts.push(pane("Your code returned", "scenario-value", prettyLines(valueOf(outcome.value))));
  } else if (outcome.kind === "timeout") {
    parts.push(h("p", { class: "case-message", "data-testid": "message" }, timeoutMessage(timeLimit)));
  } else {
    parts.push(h("pre", { class: "case-message traceback", "data-testid": "message" }, outcome.error));
  }
  parts.push(output(outcome.output, true));
  const trace = renderTrace(outcome.trace);
  if (trace) trace.open = true;
  parts.push(trace);
  return parts.filter(Boolean);
}

// The lines of a visible case's expected and actual sides: the judge's walk marks where two values differ inside (a
// dict's key, a list's item, a set's members); otherwise each side is its text as Python writes it (`shown`).
function shownValues(testCase, result, values) {
  const shown = (text) => (text === undefined || text === null || text === "" ? null : unmarked(text));
  // Read whenever they are there: a value the page cannot read is said so (feedback.js), not drawn as if it were.
  const expectedValue = values?.expected ? valueOf(values.expected) : null;
  const actualValue = values?.actual ? valueOf(values.actual) : null;
  const both = expectedValue !== null && actualValue !== null;
  const node = result.status === "fail" && both ? diff(expectedValue, actualValue, testCase.expect?.tolerance ?? null) : null;
  if (node === null || typeof node !== "object" || node.missing) {
    const expected = shown(result.expected_shown) ?? (expectedValue !== null ? prettyLines(expectedValue) : null);
    return { expected, actual: shown(result.actual_shown) };
  }
  return { expected: prettyLines(expectedValue, node, "expected"), actual: prettyLines(actualValue, node, "actual") };
}

function output(text, open) {
  if (!text) return null;
  return h("details", { class: "case-output", open },
    h("summary", {}, "Printed output"),
    h("pre", { "data-testid": "output" }, text));
}

function pane(title, testid, lines) {
  return h("figure", { class: "pane" },
    h("figcaption", {}, title),
    h("pre", { "data-testid": testid }, lines.map(line)));
}

const unmarked = (text) => text.split("\n").map((text) => ({ text, mark: null }));

/** Redraws a <pre> of values written elsewhere (a challenge's examples, in the page as built) line by line, so that
 * its long lines wrap as the results' do. */
export function hangLines(pre) {
  pre.replaceChildren(...unmarked(pre.textContent).map(line).flat());
}

// Each line is a full-width inline block (a marked one reads as a band), so that a long one wraps under its own
// indentation (--hang, style.css), and is followed by a newline outside it, so that the text copies and reads as
// written.
function line({ text, mark }) {
  const style = `--hang: ${/^ */.exec(text)[0].length + HANG}ch`;
  if (!mark) return [h("span", { class: "line", style }, text), "\n"];
  return [h("mark", { class: `line diff diff-${mark}`, title: MARK_LABELS[mark], style }, text), "\n"];
}
