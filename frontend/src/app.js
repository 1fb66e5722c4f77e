// Page entry of a challenge: the editor, the autosave, the Python session and
// the Run button. Python starts loading as soon as the page opens; the editor
// does not wait for it.
import { RESTART_REASONS } from "./session.js";
import { createPageSession } from "./page-session.js";
import { formatSeconds, judgeCase, summarize } from "./judge.js";
import { FONT_SIZES, createEditor } from "./editor.js";
import {
  challengeVersion, copies, createAutosave, fontSize, isSolved, markSolved, removeKey, saveBase, saveFontSize,
  savedBase, storageKey,
} from "./storage.js";
import { createResults } from "./results.js";
import { parsePy } from "./pyvalue.js";
import { createBatch, focusableScrollers, h } from "./dom.js";
import { setupHints } from "./hints.js";
import { unlockSolution } from "./solution.js";
import { setupThemeToggle } from "./theme.js";
import { setupTabs } from "./tabs.js";
import { setupScenario } from "./scenario.js";

const MAX_UPLOAD_BYTES = 256 * 1024;
// A run shows its progress at most this often: a quick run (most are tens of milliseconds) draws once.
const PROGRESS_MS = 100;
const NOTE_MS = 8000;

const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);
const data = JSON.parse(document.getElementById("exercise-data").textContent);
const ui = {
  run: byTestId("run"),
  stop: byTestId("stop"),
  runNote: byTestId("run-note"),
  reset: byTestId("reset"),
  upload: byTestId("upload"),
  saved: byTestId("saved"),
  status: byTestId("status"),
  results: byTestId("results"),
  note: document.getElementById("editor-note"),
  mount: document.getElementById("editor"),
  passed: document.querySelector("[data-passed]"),
  solution: document.querySelector("[data-solution]"),
  solvedBadge: document.querySelector("[data-solved-badge]"),
  codeState: byTestId("code-state"),
  siteChanged: byTestId("site-changed"),
  smaller: byTestId("font-smaller"),
  larger: byTestId("font-larger"),
};
setupThemeToggle();
focusableScrollers(document.querySelector(".brief"));
const tabs = setupTabs(document.querySelector("[data-tabs]"));
const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
const undoKey = isMac ? "Cmd+Z" : "Ctrl+Z";

// --- Python session -------------------------------------------------------
let sessionState = "loading";
let loadError = "";
const RESTART_TEXT = {
  [RESTART_REASONS.noInterrupt]: "a case ran out of time, and this page cannot interrupt Python",
  [RESTART_REASONS.noAnswer]: "a case ran out of time and did not stop when interrupted",
  [RESTART_REASONS.stopped]: "you stopped a run, and this page cannot interrupt Python",
};
// kind: "cases" (Run) or "scenario" (the learner's own, never graded); stopping: Stop was pressed during it;
// failing: links to the cards of the cases that did not pass, shown in the status after the run; reveal: the index
// of the card to bring into view once it is over (the first that did not pass).
const run = { busy: false, kind: "cases", current: null, total: 0, summary: null, outcome: null, stopping: false,
  failing: null, reveal: null };
let scenario = null; // set up once the editor exists; refresh() may run before

const session = createPageSession({ timeLimitMs: data.time_limit_seconds * 1000, onState });

function onState(state, detail = {}) {
  sessionState = state;
  if (state === "error") loadError = detail.message ?? "unknown error";
  if (state === "restarting") ui.status.dataset.restartReason = detail.reason;
  refresh();
}

// The status shows "running" from the click until the last verdict is in, not
// only while the worker is busy, so "ready" always means the results are final.
function refresh() {
  const state = ["loading", "error", "restarting"].includes(sessionState) ? sessionState
    : run.busy ? "running" : "ready";
  ui.status.dataset.state = state;
  if (state === "ready" && run.outcome) ui.status.dataset.outcome = run.outcome;
  else delete ui.status.dataset.outcome;
  ui.status.replaceChildren({
    loading: run.busy ? "Loading Python… your run starts as soon as it is ready."
      : "Loading Python… you can start writing meanwhile.",
    error: `Python failed to load (${loadError}). Reload the page to try again.`,
    restarting: `Restarting Python (${RESTART_TEXT[ui.status.dataset.restartReason]})…`,
    running: run.stopping ? "Stopping…" : run.kind === "scenario" ? "Running your scenario…"
      : run.current === null ? "Starting…" : `Running case ${run.current + 1} of ${run.total}…`,
    ready: run.summary ?? "Python is ready. Press Run to check your code.",
  }[state]);
  if (state === "ready" && run.failing) ui.status.append(" ", run.failing);
  // Stop shows in Run's place while a run is on (style.css): the keyboard's focus goes from one to the other.
  const focused = document.activeElement;
  ui.run.disabled = run.busy || sessionState === "error";
  ui.stop.disabled = !run.busy;
  if (focused === ui.run && run.busy) ui.stop.focus({ preventScroll: true });
  if (focused === ui.stop && !run.busy) ui.run.focus({ preventScroll: true });
  scenario?.setEnabled(!ui.run.disabled);
}

// --- Editor and autosave --------------------------------------------------
const starter = data.starter;
const autosave = createAutosave({
  key: storageKey(data.track, data.slug),
  starter,
  onStatus(state) {
    ui.saved.dataset.state = state;
    ui.saved.textContent = { saving: "Saving...", saved: "Saved", failed: "Not saved: storage is unavailable",
      held: "Not saved: choose a version above" }[state];
  },
  onOtherTab: showConflict,
});
const saved = autosave.load();
ui.mount.replaceChildren(); // the placeholder that held the editor's height
const editor = createEditor({
  parent: ui.mount,
  doc: saved ?? starter,
  onRun: startRun,
  onZoom: zoom,
  label: `Your solution: Python code defining ${data.entry}`,
});
// The challenge as this page has it: the saved code records which one it was written against.
const version = challengeVersion(data);
let baseSaved = false;
editor.onChange((text) => {
  autosave.schedule(text);
  showCodeState(text);
  if (!baseSaved) saveBase(data.track, data.slug, version);
  baseSaved = true;
  ui.siteChanged.hidden = true;
});
showCodeState(editor.getText());
if (saved !== null) {
  ui.saved.dataset.state = "saved";
  ui.saved.textContent = "Saved";
  note("Restored your saved code. Reset brings back the starter code.");
  const base = savedBase(data.track, data.slug);
  if (base === null) saveBase(data.track, data.slug, version); // saved before versions were recorded
  else if (base !== version) {
    ui.siteChanged.textContent = "This challenge has changed since you saved your code (new starter code or "
      + "cases). Your code is kept as you left it; Reset shows the new starter code.";
    ui.siteChanged.hidden = false;
  }
}

function showCodeState(text) {
  const edited = text !== starter;
  ui.codeState.dataset.state = edited ? "edited" : "starter";
  ui.codeState.textContent = edited ? "Your code" : "Starter code";
  ui.codeState.title = edited ? "Your code differs from the starter code." : "This is the starter code, unchanged.";
}

// The editor's font size: A-/A+ in the toolbar, Ctrl+= and Ctrl+- in the editor; one for every challenge.
let sizeIndex = Math.max(0, FONT_SIZES.indexOf(fontSize() ?? 14));
function zoom(step) {
  sizeIndex = Math.min(Math.max(sizeIndex + step, 0), FONT_SIZES.length - 1);
  saveFontSize(FONT_SIZES[sizeIndex]);
  applyFontSize();
}
function applyFontSize() {
  editor.setFontSize(FONT_SIZES[sizeIndex]);
  ui.smaller.disabled = sizeIndex === 0;
  ui.larger.disabled = sizeIndex === FONT_SIZES.length - 1;
}
ui.smaller.addEventListener("click", () => zoom(-1));
ui.larger.addEventListener("click", () => zoom(1));
applyFontSize();

// Versions of this challenge's code that an import replaced (transfer.js): listed, loadable, removable.
function showCopies() {
  document.querySelector(".copies")?.remove();
  const kept = copies(data.track, data.slug);
  if (!kept.length) return;
  ui.mount.after(h("details", { class: "copies", "data-testid": "copies" },
    h("summary", {}, `Other versions of your code (${kept.length})`),
    h("ul", {}, kept.map((copy) => {
      const when = new Date(copy.date).toLocaleString();
      const load = h("button", { type: "button", class: "button button-small", "data-testid": "copy-load" }, "Load");
      const remove = h("button", { type: "button", class: "button button-small", "data-testid": "copy-delete" }, "Delete");
      load.setAttribute("aria-label", `Load the version kept on ${when}`);
      remove.setAttribute("aria-label", `Delete the version kept on ${when}`);
      load.addEventListener("click", () => {
        editor.setText(copy.text);
        editor.focus();
        note(`Loaded the version kept on ${when}. ${undoKey} undoes it.`);
      });
      remove.addEventListener("click", () => {
        removeKey(copy.key);
        showCopies();
      });
      return h("li", {}, h("span", {}, `Kept on ${when}`), load, remove);
    }))));
}
showCopies();

// Another tab saved different code for this challenge. This tab holds its own
// saves until the learner chooses, so neither version is overwritten unseen.
let theirs = null;
const conflict = h("div", { class: "conflict", "data-testid": "conflict", role: "alert", hidden: true },
  h("p", {}, "This challenge's code was changed in another tab."),
  h("button", { type: "button", class: "button", "data-testid": "conflict-load" }, "Load the other tab's version"),
  h("button", { type: "button", class: "button", "data-testid": "conflict-keep" }, "Keep this one"));
ui.mount.before(conflict);

function showConflict(text) {
  theirs = text;
  if (text !== editor.getText()) {
    conflict.hidden = false;
    autosave.hold();
  } else if (!conflict.hidden) {
    // The other tab took this tab's code (it loaded it, say): nothing is left to choose.
    resolveConflict();
    autosave.schedule(text);
  }
}

function resolveConflict() {
  conflict.hidden = true;
  autosave.resume();
}

conflict.querySelector('[data-testid="conflict-load"]').addEventListener("click", () => {
  resolveConflict();
  editor.setText(theirs);
  editor.focus();
  note(`Loaded the other tab's version. ${undoKey} undoes it.`);
});
conflict.querySelector('[data-testid="conflict-keep"]').addEventListener("click", () => {
  resolveConflict();
  editor.focus();
  note("Kept this tab's version: it is saved again as you edit.");
});

let noteTimer = null;
function note(text) {
  ui.note.textContent = text;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => (ui.note.textContent = ""), NOTE_MS);
}

ui.reset.addEventListener("click", () => {
  editor.setText(starter);
  editor.focus();
  note(`Reset to the starter code. ${undoKey} undoes it.`);
});

// The file being read into the editor: a run started meanwhile (Run or Ctrl+Enter at once) waits for it, and so
// runs the code the learner chose, not what the editor held a moment before.
let loading = Promise.resolve();

ui.upload.addEventListener("change", () => {
  const file = ui.upload.files[0];
  // Cleared so that choosing the same file again still loads it.
  ui.upload.value = "";
  if (!file) return;
  if (file.size > MAX_UPLOAD_BYTES) {
    note(`${file.name} is too large to be a solution (over ${MAX_UPLOAD_BYTES / 1024} KB).`);
    return;
  }
  loading = file.text().then(
    (text) => {
      editor.setText(text);
      editor.focus();
      note(`Loaded ${file.name}. ${undoKey} undoes it.`);
    },
    (err) => note(`${file.name} could not be read (${err.message}).`),
  );
});

// --- Hints and progress ---------------------------------------------------
setupHints(document.querySelector(".hints"), data);
ui.solvedBadge.hidden = !isSolved(data.track, data.slug);

// Every case passed, hidden ones included: the challenge is solved, and the
// values the run returned are the key to the reference solution.
async function onPassed(outcomes) {
  markSolved(data.track, data.slug);
  ui.solvedBadge.hidden = false;
  if (ui.solution.querySelector('[data-testid="solution"]')) return;
  try {
    const source = await unlockSolution(data.solution, outcomes.map((o) => o.value));
    ui.solution.replaceChildren(h("details", { class: "solution", "data-testid": "solution" },
      h("summary", {}, "Reference solution (unlocked)"),
      h("p", { class: "hint" }, "One way to solve it. Compare it with yours: there is more than one right answer."),
      // What the unlock proves, and what it does not (docs/threat-model.md).
      h("p", { class: "hint", "data-testid": "unlock-promise" }, "Unlocking shows that a run in this page " +
        "passed every case it has. It is not a grade: the page checks hidden cases against digests that can be " +
        "worked back to their values. A grade comes from your instructor's grader."),
      h("pre", { class: "solution-code", tabindex: 0 }, h("code", {}, source))));
  } catch (err) {
    ui.solution.replaceChildren(h("p", { class: "solution-locked" },
      `The reference solution could not be unlocked (${err.message}).`));
  }
}

// --- Running --------------------------------------------------------------
scenario = setupScenario(document.querySelector('[data-testid="scenario"]'), data, runScenario);
const results = createResults(ui.results);

ui.run.addEventListener("click", startRun);
ui.stop.addEventListener("click", stopRun);
// Escape stops a run from anywhere in the page, the editor included (capture: before the editor handles the key).
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && run.busy) stopRun();
}, { capture: true });
for (const kbd of document.querySelectorAll(".mod-key")) kbd.textContent = isMac ? "⌘" : "Ctrl";

function stopRun() {
  if (!run.busy || run.stopping) return;
  run.stopping = true;
  session.stop();
  refresh();
}

// Code that cannot be loaded: a syntax error, a missing function, an error raised before the function is called.
const isLoadError = (outcome) => outcome.kind === "error" && outcome.phase === "load";
// A run ends at its first case that runs out of time (an endless loop then costs one time limit, not one a case),
// and at code that cannot be loaded (every case would say the same).
const endsTheRun = (outcome) => outcome.kind === "timeout" || isLoadError(outcome);

async function startRun() {
  if (run.busy || sessionState === "error") return;
  Object.assign(run, { busy: true, kind: "cases", current: null, total: data.cases.length, summary: null, outcome: null,
    stopping: false, failing: null, reveal: null });
  ui.passed.hidden = true;
  editor.markError(null);
  showRunNote(null);
  tabs.show("results");
  ui.results.setAttribute("aria-busy", "true");
  refresh(); // at once: "ready" must never show while a run is on
  const progress = createBatch(PROGRESS_MS);
  progress.add(() => results.start(data.cases));
  const verdicts = [];
  try {
    await loading;
    // A run pressed while Python loads waits inside session.run until it is ready.
    const outcomes = run.stopping ? [] : await session.run(
      { source: editor.getText(), sandbox: data.sandbox, entry: data.entry,
        cases: data.cases.map((c) => ({ name: c.name, args: c.args })) },
      {
        onCaseStart(index) {
          run.current = index;
          progress.add(() => {
            results.running(index);
            refresh();
          });
        },
        // Each case is judged as soon as its outcome arrives, while the next one runs.
        onCaseDone(index, outcome) {
          const testCase = data.cases[index];
          const values = testCase.hidden ? null : {
            expected: parsePy(testCase.expected_json),
            actual: outcome.kind === "value" ? parsePy(outcome.value) : undefined,
          };
          // Code that cannot be loaded is said once, above the cases (showLoadError), not in a card. A card's body is
          // made at once, while the worker runs the next case; the page draws it with the others (createBatch).
          const shown = !isLoadError(outcome);
          verdicts[index] = judgeCase(testCase, outcome, data.time_limit_seconds).then((result) => {
            if (shown) {
              const body = results.body(testCase, result, values);
              progress.add(() => results.show(index, result, body));
            }
            return result;
          });
        },
        stopAt: endsTheRun,
      },
    );
    const tests = await Promise.all(verdicts);
    progress.flush();
    finishRun(tests, outcomes);
    if (run.outcome === "pass") await onPassed(outcomes);
  } catch (err) {
    progress.flush();
    results.abort(`Not run: ${err.message}`);
    run.outcome = "error";
    run.summary = `The run stopped: ${err.message}`;
  } finally {
    run.busy = false;
    run.stopping = false;
    ui.results.setAttribute("aria-busy", "false");
    refresh();
    // Once the status holds its final text: the layout above the card no longer moves.
    if (run.reveal !== null) results.reveal(run.reveal);
  }
}

// The run's verdict: the results document, the status (with links to the cases that did not pass), why any case
// was not run, and the first failing case's card brought into view.
function finishRun(tests, outcomes) {
  const total = data.cases.length;
  const loadError = outcomes.find(isLoadError);
  const complete = outcomes.length === total;
  const passed = tests.filter((t) => t.status === "pass").length;
  const summary = summarize(tests, outcomes);
  if (!complete || loadError) results.notRun();
  if (loadError) {
    run.outcome = "error";
    run.summary = "Your code could not be loaded, so no case ran: see the error below.";
    showLoadError(loadError.error);
  } else if (!complete) {
    const notRun = total - outcomes.length;
    // Stopped by the learner, unless the run had ended at a timeout first.
    const timedOut = outcomes.at(-1)?.kind === "timeout";
    run.outcome = timedOut ? "fail" : "stopped";
    summary.status = "fail";
    summary.message = timedOut ? `The run ended at a case that ran out of time: ${notRun} not run.`
      : `The run was stopped: ${notRun} not run.`;
    run.summary = timedOut ? `${passed} of ${total} cases passed; the run ended at a case that ran out of time.`
      : `You stopped the run: ${passed} of ${total} cases passed, ${notRun} not run.`;
    showRunNote(timedOut ? timeoutNote(outcomes.length - 1, notRun)
      : `${plural(notRun, "case")} not run: you stopped the run.`);
  } else {
    run.outcome = summary.status;
    run.summary = `${passed} of ${total} cases passed${summary.status === "pass" ? ". Well done!" : "."}`;
  }
  // The results document, in the CLI's --json shape (the cases that ran), for tests and anyone scripting the page.
  window.loopcraft = { lastResult: summary };
  ui.passed.hidden = run.outcome !== "pass";
  const failing = tests.flatMap((t, index) => (t.status === "pass" ? [] : [index]));
  if (!loadError && failing.length) {
    run.failing = failureLinks(failing);
    run.reveal = failing[0];
  }
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// One message for every case a timeout left unrun.
function timeoutNote(index, notRun) {
  return [`${plural(notRun, "case")} not run: the run ended at `, caseLink(index),
    `, which ran out of time (${formatSeconds(data.time_limit_seconds)} s). A loop that never ends would take that long in `
    + "every case, so the run stopped there. Fix it and run again."];
}

const MAX_NAMED = 6;
// "Not passing: <a>name</a>, <a>name</a> and 3 more.": each a link that opens its card, scrolls to it and focuses it.
function failureLinks(indexes) {
  const named = indexes.slice(0, MAX_NAMED).map(caseLink);
  const more = indexes.length - named.length;
  return h("span", { class: "failures", "data-testid": "failures" }, "Not passing: ",
    named.flatMap((link, i) => (i === 0 ? [link] : [i === named.length - 1 && !more ? " and " : ", ", link])),
    more ? ` and ${more} more` : "", ".");
}

function caseLink(index) {
  const link = h("a", { href: `#${results.anchor(index)}` }, data.cases[index].name);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    tabs.show("results");
    results.reveal(index, { focus: true });
  });
  return link;
}

// The note above the cases: `content` (text and elements), or none when null.
function showRunNote(content, kind = "info") {
  ui.runNote.hidden = content === null;
  ui.runNote.dataset.kind = kind;
  ui.runNote.replaceChildren(...(content === null ? [] : [content].flat()));
}

// Code that cannot be loaded: the error once, above the cases, and its line marked in the editor and scrolled to. Tracebacks name the learner's
// file solution.py; the last line of it they mention is where the error is.
function showLoadError(traceback) {
  const lines = [...traceback.matchAll(/File "solution\.py", line (\d+)/g)];
  const line = lines.length ? Number(lines.at(-1)[1]) : null;
  const parts = [h("p", { class: "run-note-title" }, "Your code could not be loaded, so no case ran",
    line ? ` (line ${line}):` : ":"),
  h("pre", { class: "case-message traceback", "data-testid": "load-error", tabindex: 0 }, traceback)];
  if (line) {
    editor.markError(line, traceback.trim().split("\n").at(-1));
    const show = h("button", { type: "button", class: "button button-small", "data-testid": "show-error-line" },
      `Show line ${line} in the editor`);
    show.addEventListener("click", () => {
      tabs.show("code");
      editor.goToLine(line);
    });
    parts.push(show);
  }
  showRunNote(parts, "error");
}

// The learner's own scenario: one case through the same session, never judged or counted.
async function runScenario(args) {
  if (run.busy || sessionState === "error") throw new Error("Python is busy or unavailable; try again in a moment");
  Object.assign(run, { busy: true, kind: "scenario", summary: null, outcome: null, stopping: false, failing: null,
    reveal: null });
  refresh();
  try {
    await loading;
    const [outcome] = run.stopping ? [] : await session.run({ source: editor.getText(), sandbox: data.sandbox,
      entry: data.entry, cases: [{ name: "Your scenario", args }] }, {});
    if (!outcome) throw new Error("you stopped it");
    run.summary = {
      value: "Your scenario ran: see what your code returned below (not graded).",
      error: "Your scenario ended with an error: see it below (not graded).",
      timeout: "Your scenario ran out of time (not graded).",
    }[outcome.kind];
    return outcome;
  } catch (err) {
    run.summary = `Your scenario did not run: ${err.message}`;
    throw err;
  } finally {
    run.busy = false;
    run.stopping = false;
    refresh();
  }
}
