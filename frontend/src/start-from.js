// "Start from my code for challenge N": a challenge that builds on an earlier one (`builds_on` in its exercise.yaml)
// offers the learner's saved code of that one. What a press does is decided by pure functions of the texts involved
// (startFrom, startFromNote: tests/js/start-from.test.mjs); setupStartFrom wires them to the page. Work of the
// learner's own in the editor is never lost: it is kept as a version of this challenge's code (the page's "Other
// versions of your code", storage.js saveCopy) and the replacement is one undo step.
import { savedCode } from "./storage.js";

/**
 * What pressing the button does, from the editor's `text`, the challenge's `starter` and the `earlier` challenge's
 * saved code (null: none saved). `action`:
 * - "gone": nothing is saved for the earlier challenge (any more); nothing changes, and the button goes;
 * - "same": the editor holds that code already; nothing changes;
 * - "replace": the editor holds the starter, nothing of the learner's: replaced at once;
 * - "confirm": the editor holds work of the learner's own: replaced only once they confirm, and `keep` (that work)
 *   is kept as a version first.
 */
export function startFrom({ text, starter, earlier }) {
  if (earlier === null) return { action: "gone" };
  if (text === earlier) return { action: "same" };
  if (text === starter) return { action: "replace", code: earlier };
  return { action: "confirm", code: earlier, keep: text };
}

const challenge = ({ number, title }) => `challenge ${number} (${title})`;

/** The question a "confirm" asks before replacing the learner's own work. */
export function startFromQuestion(from) {
  return `Replace the code in the editor with your code for ${challenge(from)}? The code in the editor now is kept `
    + `under "Other versions of your code".`;
}

/**
 * What the page says (in its live region) once a press is handled: `action` as startFrom decided, `confirmed` false
 * when the learner said no, `kept` whether their own work was kept as a version (storage can be full).
 */
export function startFromNote(action, { from, undoKey, confirmed = true, kept = false }) {
  if (action === "gone") return `This browser holds no code of yours for ${challenge(from)} any more.`;
  if (action === "same") return `The editor already holds your code for ${challenge(from)}.`;
  if (!confirmed) return "Nothing was replaced: the editor keeps your code.";
  const put = `The editor now holds your code for ${challenge(from)}.`;
  if (action === "replace") return `${put} ${undoKey} brings back the starter code.`;
  const where = kept ? "Your previous code is kept under \"Other versions of your code\"; " : "";
  return `${put} ${where}${undoKey} brings your previous code back.`;
}

/**
 * button: the page's start-from button (absent when the challenge builds on none); data: the page's data
 * (`track`, `builds_on`: {slug, number, title}); page: {editor, starter, undoKey, note(text), keep(text) -> kept,
 * signal (aborts when the page is left)}.
 */
export function setupStartFrom(button, { track, builds_on: from }, { editor, starter, undoKey, note, keep, signal }) {
  if (!button || !from) return;
  const earlier = () => savedCode(track, from.slug);
  const show = () => (button.hidden = earlier() === null);
  // Another tab may save (or reset) the earlier challenge's code while this page is open.
  addEventListener("storage", (event) => {
    if (event.storageArea === localStorage) show();
  }, { signal });
  show();
  button.addEventListener("click", () => {
    const text = editor.getText();
    const { action, code, keep: own } = startFrom({ text, starter, earlier: earlier() });
    const confirmed = action !== "confirm" || confirm(startFromQuestion(from));
    const kept = confirmed && own !== undefined && keep(own);
    if (confirmed && code !== undefined) editor.setText(code);
    show();
    editor.focus();
    note(startFromNote(action, { from, undoKey, confirmed, kept }));
  });
}
