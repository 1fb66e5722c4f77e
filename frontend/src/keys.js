// Ctrl/Cmd+Enter runs the learner's code from anywhere on a challenge page: reading the task, on a button, in the
// results. Not where the key has a meaning of its own: a text field (the editor runs the code itself, the
// scenario's box runs the scenario, as its button does) and a link (the browser opens it in a new tab).
const OWN_MEANING = "a[href], input, textarea, select, [contenteditable]";

/** Whether the keydown `event` is Ctrl+Enter or Cmd+Enter. */
export const isModEnter = (event) => event.key === "Enter" && (event.ctrlKey || event.metaKey);

/** Whether the keydown `event` is the page's Run. */
export const runsTheCode = (event) => isModEnter(event) && !event.target.closest?.(OWN_MEANING);
