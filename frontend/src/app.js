// Page entry of a challenge: the editor, the autosave, the Python session and
// the Run button. Python starts loading as soon as the page opens; the editor
// does not wait for it.
import { browserSpawner, createSession } from "./session.js";
import { judgeCase, summarize } from "./judge.js";
import { createEditor } from "./editor.js";
import { createAutosave, isSolved, markSolved, storageKey } from "./storage.js";
import { createResults } from "./results.js";
import { repr } from "./pretty.js";
import { createBatch, h } from "./dom.js";
import { setupHints } from "./hints.js";
import { unlockSolution } from "./solution.js";
import { registerServiceWorker } from "./offline.js";

const MAX_UPLOAD_BYTES = 256 * 1024;
// A run shows its progress at most this often: a quick run (most are tens of milliseconds) draws once.
const PROGRESS_MS = 100;
const NOTE_MS = 8000;

const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);
const data = JSON.parse(document.getElementById("exercise-data").textContent);
const ui = {
  run: byTestId("run"),
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
};
const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
const undoKey = isMac ? "Cmd+Z" : "Ctrl+Z";

// --- Python session -------------------------------------------------------
let sessionState = "loading";
let loadError = "";
const run = { busy: false, current: null, total: 0, summary: null, outcome: null };

// The asset version rides on app.js's own URL; the worker gets the same one (challenge.html spawns it early).
const siteRoot = new URL(document.body.dataset.siteRoot, document.baseURI);
const workerUrl = new URL(`assets/worker.js${new URL(import.meta.url).search}`, siteRoot).href;
const session = createSession({
  spawn: browserSpawner(workerUrl, window.loopcraftWorker),
  timeLimitMs: data.time_limit_seconds * 1000,
  onState,
});
registerServiceWorker(siteRoot, session.whenIdle());

function onState(state, detail = {}) {
  sessionState = state;
  if (state === "error") loadError = detail.message ?? "unknown error";
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
  ui.status.textContent = {
    loading: run.busy ? "Loading Python… your run starts as soon as it is ready."
      : "Loading Python… you can start writing meanwhile.",
    error: `Python failed to load (${loadError}). Reload the page to try again.`,
    restarting: "Restarting Python (a case ran out of time or broke the interpreter)…",
    running: run.current === null ? "Starting…" : `Running case ${run.current + 1} of ${run.total}…`,
    ready: run.summary ?? "Python is ready. Press Run to check your code.",
  }[state];
  ui.run.disabled = run.busy || sessionState === "error";
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
  label: `Your solution: Python code defining ${data.entry}`,
});
editor.onChange((text) => autosave.schedule(text));
if (saved !== null) {
  ui.saved.dataset.state = "saved";
  ui.saved.textContent = "Saved";
  note("Restored your saved code. Reset brings back the starter code.");
}

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

ui.upload.addEventListener("change", async () => {
  const file = ui.upload.files[0];
  // Cleared so that choosing the same file again still loads it.
  ui.upload.value = "";
  if (!file) return;
  if (file.size > MAX_UPLOAD_BYTES) {
    note(`${file.name} is too large to be a solution (over ${MAX_UPLOAD_BYTES / 1024} KB).`);
    return;
  }
  editor.setText(await file.text());
  editor.focus();
  note(`Loaded ${file.name}. ${undoKey} undoes it.`);
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
      h("pre", { class: "solution-code" }, h("code", {}, source))));
  } catch (err) {
    ui.solution.replaceChildren(h("p", { class: "solution-locked" },
      `The reference solution could not be unlocked (${err.message}).`));
  }
}

// --- Running --------------------------------------------------------------
// Visible cases show the input as the examples print it; other cases show the
// call's keyword arguments.
const exampleInputs = new Map([...document.querySelectorAll("[data-example]")]
  .map((el) => [el.dataset.example, el.querySelector(".example-input").textContent]));
const results = createResults(ui.results, {
  inputText: (c) => exampleInputs.get(c.name)
    ?? Object.entries(c.args).map(([name, value]) => `${name}=${repr(value)}`).join("\n"),
});

ui.run.addEventListener("click", startRun);
for (const kbd of document.querySelectorAll(".mod-key")) kbd.textContent = isMac ? "⌘" : "Ctrl";

async function startRun() {
  if (run.busy || sessionState === "error") return;
  Object.assign(run, { busy: true, current: null, total: data.cases.length, summary: null, outcome: null });
  ui.passed.hidden = true;
  ui.results.setAttribute("aria-busy", "true");
  refresh(); // at once: "ready" must never show while a run is on
  const progress = createBatch(PROGRESS_MS);
  progress.add(() => results.start(data.cases));
  const verdicts = [];
  try {
    // A run pressed while Python loads waits inside session.run until it is ready.
    const outcomes = await session.run(
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
          verdicts[index] = judgeCase(data.cases[index], outcome, data.time_limit_seconds)
            .then((result) => (progress.add(() => results.show(index, result)), result));
        },
      },
    );
    const tests = await Promise.all(verdicts);
    progress.flush();
    const summary = summarize(tests, outcomes);
    const { status } = summary;
    // The results document, in the CLI's --json shape, for tests and for anyone scripting the page.
    window.loopcraft = { lastResult: summary };
    const passed = tests.filter((t) => t.status === "pass").length;
    run.outcome = status;
    ui.passed.hidden = status !== "pass";
    if (status === "pass") await onPassed(outcomes);
    run.summary = `${passed} of ${tests.length} passed` + {
      pass: ". Well done!",
      fail: ".",
      error: ": your code could not be loaded (see the error below).",
    }[status];
  } catch (err) {
    progress.flush();
    results.abort(`Not run: ${err.message}`);
    run.outcome = "error";
    run.summary = `The run stopped: ${err.message}`;
  } finally {
    run.busy = false;
    ui.results.setAttribute("aria-busy", "false");
    refresh();
  }
}
