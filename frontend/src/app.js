// Page entry of a challenge: the editor, the autosave, the Python session and
// the Run button. Python starts loading as soon as the page opens; the editor
// does not wait for it.
import { createPageSession } from "./page-session.js";
import { keywordCall } from "./session.js";
import { formatSeconds, judgeCase } from "./judge.js";
import { canRun, endsTheRun, failingOf, initialState, isLoadError, mistakesOf, next, statusOf } from "./run-state.js";
import { passed, publicVerdict, tally } from "./verdict.js";
import { FONT_SIZES, createEditor } from "./editor.js";
import {
  challengeVersion, COPY_FROM, copies, createAutosave, fontSize, isSolved, markSolved, removeKey, saveBase, saveCopy,
  saveFontSize, savedBase, saveUnlockKey, storageKey, unlockKeys,
} from "./storage.js";
import { createResults, hangLines, mistakeNotes } from "./results.js";
import { nameMistakes } from "./mistakes.js";
import { createBatch, focusableScrollers, h } from "./dom.js";
import { setupHints } from "./hints.js";
import { unlockSolution, unlockWithKey } from "./solution.js";
import { setupThemeToggle } from "./theme.js";
import { setupTabs } from "./tabs.js";
import { setupScenario } from "./scenario.js";
import { runsTheCode } from "./keys.js";
import { setupStartFrom } from "./start-from.js";
import { startPage } from "./navigate.js";

const MAX_UPLOAD_BYTES = 256 * 1024;
// A run shows its progress at most this often: a quick run (most are tens of milliseconds) draws once.
const PROGRESS_MS = 100;
const NOTE_MS = 8000;

const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);

// The page, set up on the document's page: now, and again each time the navigation brings a challenge in
// (navigate.js). Whatever it adds outside its own elements goes when `signal` aborts.
function mount({ signal }) {
  const data = JSON.parse(document.getElementById("exercise-data").textContent);
  // The challenge's known mistakes as the judge takes them: the page's hidden cases carry the salt their digests use.
  const catalogue = { salt: data.cases.find((c) => c.expect.salt !== undefined)?.expect.salt ?? "", known: data.mistakes ?? [] };
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
  setupThemeToggle({ signal });
  focusableScrollers(document.querySelector(".brief"));
  for (const pre of document.querySelectorAll(".example-io pre")) hangLines(pre);
  const tabs = setupTabs(document.querySelector("[data-tabs]"), { signal });
  const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
  const undoKey = isMac ? "Cmd+Z" : "Ctrl+Z";

  // --- Python session and the run's state -----------------------------------
  // The one run state (run-state.js): every change to it is an event through next(); the page is drawn from it.
  let state = initialState;
  let scenario = null; // set up once the editor exists; refresh() may run before

  function apply(event) {
    state = next(state, event);
  }
  function dispatch(event) {
    apply(event);
    refresh();
  }

  const session = createPageSession({ timeLimitMs: data.time_limit_seconds * 1000, onState, signal });

  // The session's states as the page's events: "running" and "finished" say only that Python is up.
  function onState(sessionState, detail = {}) {
    dispatch(sessionState === "loading" ? { type: "python-loading" }
      : sessionState === "error" ? { type: "python-failed", message: detail.message ?? "unknown error" }
        : sessionState === "restarting" ? { type: "python-restarting", reason: detail.reason }
          : { type: "python-ready" });
  }

  function refresh() {
    const status = statusOf(state);
    ui.status.dataset.state = status.state;
    if (status.outcome) ui.status.dataset.outcome = status.outcome;
    else delete ui.status.dataset.outcome;
    if (state.restartReason) ui.status.dataset.restartReason = state.restartReason;
    ui.status.replaceChildren(status.text);
    const failing = status.state === "ready" ? failingOf(state) : [];
    if (failing.length) ui.status.append(" ", failureLinks(failing));
    // Every case of the page passed: not every case of the challenge, when the instructor's grader has its own.
    if (status.outcome === "pass" && state.kind === "cases") ui.status.append(privateNote(" "));
    ui.status.append(...mistakeNotes(mistakesOf(state)));
    // Stop shows in Run's place while a run is on (style.css): the keyboard's focus goes from one to the other.
    const focused = document.activeElement;
    ui.run.disabled = !canRun(state);
    ui.stop.disabled = !state.busy;
    if (focused === ui.run && state.busy) ui.stop.focus({ preventScroll: true });
    if (focused === ui.stop && !state.busy) ui.run.focus({ preventScroll: true });
    scenario?.setEnabled(!ui.run.disabled);
  }

  // What a page that shows every case passed does not know: the cases only the instructor's grader runs.
  function privateNote(before = "") {
    const count = data.private_count ?? 0;
    if (!count) return "";
    return `${before}${count} more case${count === 1 ? " is" : "s are"} checked only by your instructor's grader, never by this page.`;
  }

  // --- Editor and autosave --------------------------------------------------
  const starter = data.starter;
  // Declared before anything calls note(): inside mount() a `let` is not hoisted as the bundle's top level's is.
  let noteTimer = null;
  signal.addEventListener("abort", () => clearTimeout(noteTimer));
  const autosave = createAutosave({
    key: storageKey(data.track, data.slug),
    starter,
    onStatus(state) {
      ui.saved.dataset.state = state;
      ui.saved.textContent = { saving: "Saving...", saved: "Saved", failed: "Not saved: storage is unavailable",
        held: "Not saved: choose a version above" }[state];
    },
    onOtherTab: showConflict,
    signal,
  });
  const saved = autosave.load();
  ui.mount.replaceChildren(); // the placeholder that held the editor's height
  const editor = createEditor({
    parent: ui.mount,
    doc: saved ?? starter,
    indentFrom: starter,
    onRun: startRun,
    onZoom: zoom,
    label: `Your solution: Python code defining ${data.entry}`,
    signal,
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

  // Versions of this challenge's code that an import or "Start from my code" replaced: listed with where each was,
  // loadable, removable.
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
        const what = copy.from ? `${COPY_FROM[copy.from][0].toUpperCase()}${COPY_FROM[copy.from].slice(1)}; kept on ${when}`
          : `Kept on ${when}`;
        return h("li", { "data-from": copy.from ?? "" }, h("span", { "data-testid": "copy-what" }, what), load, remove);
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
  ui.reset.disabled = false;

  // "Start from my code for challenge N", on a challenge that builds on an earlier one: the learner's own work it
  // replaces is kept as a version, listed with the others.
  setupStartFrom(byTestId("start-from"), data, {
    editor, starter, undoKey, note, signal,
    keep(text) {
      const kept = saveCopy(`${data.track}/${data.slug}`, text, "editor");
      showCopies();
      return kept;
    },
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
  // values the run returned are the key to the reference solution, kept with the solved mark.
  async function onPassed(outcomes) {
    markSolved(data.track, data.slug);
    ui.solvedBadge.hidden = false;
    if (ui.solution.querySelector('[data-testid="solution"]')) return;
    try {
      const { source, key } = await unlockSolution(data.solution, data.cases, outcomes);
      saveUnlockKey(data.track, data.slug, key);
      showSolution(source);
    } catch (err) {
      ui.solution.replaceChildren(h("p", { class: "solution-locked" },
        `The reference solution could not be unlocked (${err.message}).`));
    }
  }

  function showSolution(source) {
    ui.solution.replaceChildren(h("details", { class: "solution", "data-testid": "solution" },
      h("summary", {}, "Reference solution (unlocked)"),
      h("p", { class: "hint" }, "One way to solve it. Compare it with yours: there is more than one right answer."),
      // What the unlock proves, and what it does not (docs/threat-model.md).
      h("p", { class: "hint", "data-testid": "unlock-promise" }, "Unlocking shows that a run in this page " +
        "passed every case it has. It is not a grade: the page checks hidden cases against digests that can be " +
        "worked back to their values. A grade comes from your instructor's grader."),
      h("pre", { class: "solution-code", tabindex: 0 }, h("code", {}, source))));
  }

  // Solved before (here, or in a browser whose work was imported): the kept key opens the solution, no run needed.
  // A key of another build of the site opens nothing, and the solution waits for a passing run.
  async function unlockSolved() {
    if (!isSolved(data.track, data.slug)) return;
    for (const key of unlockKeys(data.track, data.slug)) {
      try {
        const source = await unlockWithKey(data.solution, key);
        if (!ui.solution.querySelector('[data-testid="solution"]')) showSolution(source);
        return;
      } catch {
        // Not this build's key: try the next.
      }
    }
  }
  unlockSolved();

  // --- Running --------------------------------------------------------------
  scenario = setupScenario(document.querySelector('[data-testid="scenario"]'), data, runScenario);
  const results = createResults(ui.results);

  ui.run.addEventListener("click", startRun);
  document.addEventListener("keydown", (event) => {
    if (!runsTheCode(event)) return;
    event.preventDefault(); // a focused button would take the Enter as a click of its own
    startRun();
  }, { signal });
  ui.stop.addEventListener("click", stopRun);
  // Escape stops a run from anywhere in the page, the editor included (capture: before the editor handles the key).
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.busy) stopRun();
  }, { capture: true, signal });
  for (const kbd of document.querySelectorAll(".mod-key")) kbd.textContent = isMac ? "⌘" : "Ctrl";

  function stopRun() {
    if (!state.busy || state.stopping) return;
    dispatch({ type: "stop-requested" });
    session.stop();
  }

  async function startRun() {
    if (!canRun(state)) return;
    dispatch({ type: "run-started", kind: "cases", total: data.cases.length }); // at once: never "ready" while a run is on
    ui.passed.hidden = true;
    editor.markError(null);
    showRunNote(null);
    tabs.show("results");
    ui.results.setAttribute("aria-busy", "true");
    const progress = createBatch(PROGRESS_MS);
    let reveal = null;
    progress.add(() => results.start(data.cases));
    const verdicts = [];
    try {
      await loading;
      // A run pressed while Python loads waits inside session.run until it is ready.
      const outcomes = state.stopping ? [] : await session.run(
        { source: editor.getText(), sandbox: data.sandbox, cases: data.cases.map((c) => ({ name: c.name, run: c.run })) },
        {
          onCaseStart(index) {
            apply({ type: "case-started", index });
            progress.add(() => {
              results.running(index);
              refresh();
            });
          },
          // Each case is judged as soon as its outcome arrives, while the next one runs.
          onCaseDone(index, outcome) {
            apply({ type: "case-finished", index, outcome });
            const testCase = data.cases[index];
            // Code that cannot be loaded is said once, above the cases (showLoadError), not in a card. A card's body is
            // made at once, while the worker runs the next case; the page draws it with the others (createBatch).
            const shown = !isLoadError(outcome);
            verdicts[index] = judgeCase(testCase, outcome, data.time_limit_seconds).then((result) => {
              if (shown) {
                const values = result.hidden ? null : { expected: result.expected?.text ?? null, actual: result.actual?.text ?? null };
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
      dispatch({ type: "run-judged", tests, outcomes }); // still busy: "ready" waits for the solution's unlocking
      reveal = showVerdict();
      if (passed(state.verdict)) {
        await onPassed(outcomes);
      } else {
        // Named before the run ends, so that "ready" means the status is final.
        const { hints } = await nameMistakes(state.verdict, catalogue);
        apply({ type: "mistakes-named", hints });
      }
    } catch (err) {
      progress.flush();
      results.abort(`Not run: ${err.message}`);
      apply({ type: "run-failed", message: err.message });
    } finally {
      ui.results.setAttribute("aria-busy", "false");
      dispatch({ type: "run-ended" });
      // Once the status holds its final text: the layout above the card no longer moves.
      if (reveal !== null) results.reveal(reveal);
    }
  }

  // The parts of the page a judged run changes once, drawn from the state: the results document, the cards of the
  // cases not run and why they were not. Returns the index of the card to bring into view once the run is over (the
  // first that did not pass), or null.
  function showVerdict() {
    const { verdict, ended } = state;
    // The results document, in the CLI's --json shape (the cases that ran), for tests and anyone scripting the page.
    window.loopcraft = { lastResult: publicVerdict(verdict) };
    const { notRun } = tally(verdict, state.total);
    // The cards left without a verdict; code that did not load has none in any card.
    if (notRun > 0 || verdict.status === "error") results.notRun();
    ui.passed.hidden = !passed(verdict);
    if (verdict.status === "error") {
      showLoadError(verdict.message);
      return null;
    }
    if (ended === "timeout") showRunNote(timeoutNote(verdict.tests.length - 1, notRun));
    if (ended === "stopped") showRunNote(`${plural(notRun, "case")} not run: you stopped the run.`);
    return failingOf(state)[0] ?? null;
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
    if (!canRun(state)) throw new Error("Python is busy or unavailable; try again in a moment");
    dispatch({ type: "run-started", kind: "scenario", total: 1 });
    try {
      await loading;
      const [outcome] = state.stopping ? [] : await session.run({ source: editor.getText(), sandbox: data.sandbox,
        cases: [{ name: "Your scenario", run: keywordCall(data.entry, args) }] }, {});
      if (!outcome) throw new Error("you stopped it");
      apply({ type: "scenario-returned", outcome });
      return outcome;
    } catch (err) {
      apply({ type: "run-failed", message: err.message });
      throw err;
    } finally {
      dispatch({ type: "run-ended" });
    }
  }

  return () => session.leave();
}

startPage(mount);
