// Tiny element builder. String children are appended as text nodes, so
// learner-produced text is never parsed as HTML.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

/** Text written in Markdown's inline style, as children for h(): `code` in backticks as code, the rest as text. */
export function withCode(text) {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 ? h("code", {}, part) : part));
}

// Coalesces DOM updates: each one queued is applied at most `ms` later, all together, or at once by
// flush(). A run's per-case updates then cost one rendered frame per `ms` rather than one per case.
export function createBatch(ms) {
  let queue = [];
  let timer = null;
  function flush() {
    clearTimeout(timer);
    timer = null;
    const updates = queue;
    queue = [];
    for (const update of updates) update();
  }
  return {
    add(update) {
      queue.push(update);
      timer ??= setTimeout(flush, ms);
    },
    flush,
  };
}

/** Makes the code blocks of `root` that may scroll focusable, so that a keyboard can scroll them too. */
export function focusableScrollers(root) {
  for (const pre of root.querySelectorAll(".prose pre, .sandbox-code pre, .question-code pre")) {
    if (!pre.hasAttribute("tabindex")) pre.tabIndex = 0;
  }
}
