// Page entry of a lesson: live Python blocks (an editor each, run through the page's one Python session,
// the same interrupt/restart, time limit and Stop as a challenge), "Check your understanding" questions checked
// against salted digests, and "Mark complete". The lesson reads fine without it: the outputs recorded at
// build time are in the page.
import { createPageSession } from "./page-session.js";
import { keywordCall } from "./session.js";
import { createEditor } from "./editor.js";
import { createAutosave, isComplete, liveKey, markComplete, rightAnswers, saveRightAnswers } from "./storage.js";
import { focusableScrollers, h, withCode } from "./dom.js";
import { setupThemeToggle } from "./theme.js";
import { decrypt } from "./solution.js";
import { sha256Hex } from "./judge.js";
import { blockTimeoutMessage } from "./outcomes.js";
import { startPage } from "./navigate.js";

const byTestId = (id, root = document) => root.querySelector(`[data-testid="${id}"]`);

// The page, set up on the document's page: now, and again each time the navigation brings a lesson in
// (navigate.js). Whatever it adds outside its own elements goes when `signal` aborts.
function mount({ signal }) {
  const data = JSON.parse(document.getElementById("lesson-data").textContent);
  const status = byTestId("status");
  setupThemeToggle({ signal });
  focusableScrollers(document.querySelector(".lesson-page"));
  const session = createPageSession({
    signal,
    timeLimitMs: data.time_limit_seconds * 1000,
    onState(state, detail = {}) {
      if (state === "finished") state = "ready"; // a block's run is over: Python is ready for the next
      status.dataset.state = state;
      status.textContent = {
        loading: "Loading Python… the outputs below were recorded when the site was built.",
        error: `Python failed to load (${detail.message}). Reload the page to try again.`,
        restarting: detail.reason === "stopped" ? "Restarting Python (a block was stopped)…"
          : "Restarting Python (a block ran out of time)…",
        running: "Running…",
        ready: "Python is ready: edit any live block and press Run.",
      }[state] ?? status.textContent;
    },
  });

  // --- Live blocks ------------------------------------------------------------
  // One session runs one request at a time: blocks pressed together wait their turn.
  let queue = Promise.resolve();

  function showOutcome(output, outcome) {
    const parts = [];
    // Focusable, so that a keyboard can scroll a long line into view.
    const pre = (cls, text) => h("pre", { class: cls, tabindex: 0 }, text);
    if (outcome.output) parts.push(pre("live-printed", outcome.output));
    if (outcome.kind === "value") {
      const { value, error } = JSON.parse(outcome.value);
      if (value !== null) parts.push(pre("live-value", value));
      if (error) parts.push(pre("live-error", error));
    } else if (outcome.kind === "timeout") {
      parts.push(pre("live-error", blockTimeoutMessage(data.time_limit_seconds))); // the text the build records too
    } else {
      parts.push(pre("live-error", outcome.error));
    }
    if (!parts.length) parts.push(h("p", { class: "live-empty" }, "(no output)"));
    output.replaceChildren(...parts);
  }

  for (const figure of document.querySelectorAll('[data-testid="live-block"]')) {
    const number = Number(figure.dataset.block);
    const original = data.blocks[number].code;
    const autosave = createAutosave({ key: liveKey(data.track, data.slug, number), starter: original, onStatus: () => {}, signal });
    const mount = figure.querySelector("[data-editor]");
    const run = byTestId("run", figure);
    const output = byTestId("output", figure);
    // What the build recorded for the lesson's code: Reset brings it back with the code.
    const recorded = [...output.childNodes].map((node) => node.cloneNode(true));
    mount.replaceChildren();
    const editor = createEditor({ parent: mount, doc: autosave.load() ?? original, indentFrom: original, onRun: start,
      label: `Live Python block ${number + 1}`, signal });
    editor.onChange((text) => autosave.schedule(text));
    run.disabled = false;

    const stop = byTestId("stop", figure);
    let stopped = false; // pressed for this block's run, which may still be waiting for another block's
    let inFlight = false; // this block's run is the session's

    function start() {
      if (output.dataset.state === "running") return;
      output.dataset.state = "running";
      run.disabled = true;
      stop.disabled = false;
      stopped = false;
      output.replaceChildren(h("p", { class: "live-note" }, "Running in your browser…"));
      const code = editor.getText();
      queue = queue.then(async () => {
        try {
          if (stopped || signal.aborted) return; // the page was left while it waited
          inFlight = true;
          const [outcome] = await session.run({ source: "", sandbox: data.live.sandbox,
            cases: [{ name: `block ${number + 1}`, run: keywordCall(data.live.entry, { code }) }] });
          // A run stopped hands back no outcome.
          if (outcome) showOutcome(output, outcome);
        } catch (err) {
          output.replaceChildren(h("pre", { class: "live-error" }, `Not run: ${err.message}`));
        } finally {
          if (stopped) output.replaceChildren(h("p", { class: "live-note" }, "Stopped: you pressed Stop before the block ended."));
          inFlight = false;
          output.dataset.state = "ran";
          run.disabled = false;
          stop.disabled = true;
        }
      });
    }
    stop.addEventListener("click", () => {
      stopped = true;
      stop.disabled = true;
      if (inFlight) session.stop();
    });
    run.addEventListener("click", start);
    byTestId("reset", figure).addEventListener("click", () => {
      editor.setText(original);
      editor.focus();
      if (output.dataset.state === "running") return; // its outcome replaces the output when it comes
      output.replaceChildren(...recorded.map((node) => node.cloneNode(true)));
      output.dataset.state = "recorded";
    });
  }

  // --- Questions ----------------------------------------------------------------
  const answered = rightAnswers(data.track, data.slug);
  const progressNote = byTestId("questions-progress");

  function showProgress() {
    if (!progressNote) return;
    const right = Object.keys(answered).length;
    progressNote.textContent = `${right} of ${data.questions.length} question${data.questions.length === 1 ? "" : "s"} answered.`
      + (right === data.questions.length ? " Well done: mark the lesson complete below." : "");
  }

  async function check(form, question, number, chosen) {
    const verdict = byTestId("verdict", form);
    if (!chosen.length) {
      verdict.textContent = "Choose an answer first.";
      return;
    }
    const right = (await sha256Hex(question.salt + JSON.stringify(chosen))) === question.digest;
    let allTicksRight = true;
    for (const item of form.querySelectorAll("[data-option]")) {
      const index = Number(item.dataset.option);
      const feedback = byTestId("feedback", item);
      // A wrong answer shows the feedback of the options chosen, and says nothing of the others, so the
      // question stays a question. Once it is answered right, every option's feedback is worth reading. Each
      // feedback shown says whether its option is a right one: a right tick is never shown as a wrong one.
      feedback.hidden = !right && !chosen.includes(index);
      delete item.dataset.verdict;
      if (feedback.hidden) continue;
      const { text, right: rightOption } = JSON.parse(await decrypt(`${question.salt}:${index}`, question.feedback[index]));
      item.dataset.verdict = rightOption ? "right" : "wrong";
      if (chosen.includes(index) && !rightOption) allTicksRight = false;
      feedback.replaceChildren(...withCode(text));
    }
    form.dataset.state = right ? "right" : "wrong";
    verdict.textContent = right ? "Right." : question.kind !== "multiple" ? "Not right. Read the feedback and try again."
      : allTicksRight ? "Not quite: what you ticked is right, and a right option is still unticked. Read the feedback and try again."
        : "Not quite: every right option, and only those. Read the feedback and try again.";
    if (right && !(number in answered)) {
      answered[number] = chosen;
      saveRightAnswers(data.track, data.slug, answered);
      showProgress();
    }
  }

  for (const form of document.querySelectorAll('[data-testid="question"]')) {
    const number = Number(form.dataset.question);
    const question = data.questions[number];
    const chosen = () => [...form.querySelectorAll("input:checked")].map((input) => Number(input.value)).sort((a, b) => a - b);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      check(form, question, number, chosen());
    });
    form.querySelector('[data-testid="check"]').disabled = false;
    if (Array.isArray(answered[number])) {
      for (const input of form.querySelectorAll("input")) input.checked = answered[number].includes(Number(input.value));
      check(form, question, number, chosen());
    }
  }
  showProgress();

  // --- Completion ---------------------------------------------------------------
  const markButton = byTestId("mark-complete");
  const badge = document.querySelector("[data-complete-badge]");

  function showComplete() {
    badge.hidden = false;
    markButton.textContent = "Completed";
    markButton.disabled = true;
    byTestId("complete-note").textContent = "This lesson counts toward your progress on the course page.";
  }

  markButton.addEventListener("click", () => {
    markComplete(data.track, data.slug);
    showComplete();
  });
  if (isComplete(data.track, data.slug)) showComplete();
  else markButton.disabled = false;

  return () => session.leave();
}

startPage(mount);
