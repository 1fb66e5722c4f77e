// Keeps the learner's code in localStorage, one entry per challenge, saved as
// they type (debounced) so a reload or a closed tab loses nothing.

const DELAY_MS = 300;

/**
 * key: the challenge's storage key; starter: the starter code (not stored:
 * code equal to it removes the entry, so a later change to the starter shows);
 * onStatus("saving" | "saved" | "failed" | "held"); onOtherTab(text): another
 * tab saved `text` for this challenge.
 */
export function createAutosave({ key, starter, onStatus, onOtherTab = () => {} }) {
  let timer = null;
  let pending = null;
  // Held while the learner has not yet chosen between this tab's code and another tab's,
  // so that neither tab overwrites the other's code unseen.
  let held = false;

  function write() {
    clearTimeout(timer);
    timer = null;
    if (pending === null) return;
    const text = pending;
    pending = null;
    try {
      if (text === starter) localStorage.removeItem(key);
      else localStorage.setItem(key, text);
      onStatus("saved");
    } catch {
      // Storage can be full or disabled (some private modes): say so, keep going.
      onStatus("failed");
    }
  }

  // A pending save must not be lost when the tab closes inside the debounce window, nor
  // when it closes while held: the other tab is then told, and can choose in its turn.
  addEventListener("pagehide", write);

  // Fired only in the tabs that did not write; a removed entry means the other tab is back at the starter.
  addEventListener("storage", (event) => {
    if (event.storageArea === localStorage && event.key === key) onOtherTab(event.newValue ?? starter);
  });

  return {
    /** The saved code, or null when there is none (or storage is unavailable). */
    load() {
      try {
        return localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    schedule(text) {
      pending = text;
      clearTimeout(timer);
      if (held) return onStatus("held");
      onStatus("saving");
      timer = setTimeout(write, DELAY_MS);
    },
    /** Saves nothing until resume(), except when the tab closes. */
    hold() {
      held = true;
      clearTimeout(timer);
      onStatus("held");
    },
    /** Saves again from the next schedule() on. */
    resume() {
      held = false;
    },
  };
}

export function storageKey(track, slug) {
  return `loopcraft:code:${track}/${slug}`;
}

// A challenge is solved once a run passed every case, hidden ones included.
// The course index reads these marks; nothing else knows the learner's progress.
const solvedKey = (track, slug) => `loopcraft:solved:${track}/${slug}`;

export function isSolved(track, slug) {
  return read(solvedKey(track, slug)) !== null;
}

export function markSolved(track, slug) {
  write(solvedKey(track, slug), new Date().toISOString());
}

// How many hints the learner has revealed, so they stay revealed on a reload.
const hintsKey = (track, slug) => `loopcraft:hints:${track}/${slug}`;

export function revealedHints(track, slug) {
  return Number.parseInt(read(hintsKey(track, slug)) ?? "0", 10) || 0;
}

export function saveRevealedHints(track, slug, count) {
  write(hintsKey(track, slug), String(count));
}

// Storage can be disabled or full (some private modes): progress is then simply not kept.
function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not kept; the page works the same.
  }
}

// Lessons: "Mark complete", the questions answered right (with the options chosen, so a reload shows them),
// and each live block's edited code (saved by createAutosave under liveKey).
const completeKey = (track, slug) => `loopcraft:complete:${track}/${slug}`;
const answersKey = (track, slug) => `loopcraft:answers:${track}/${slug}`;

export const liveKey = (track, slug, block) => `loopcraft:live:${track}/${slug}/${block}`;

export function isComplete(track, slug) {
  return read(completeKey(track, slug)) !== null;
}

export function markComplete(track, slug) {
  write(completeKey(track, slug), new Date().toISOString());
}

/** {question number: [option numbers chosen]} for the questions answered right. */
export function rightAnswers(track, slug) {
  try {
    const saved = JSON.parse(read(answersKey(track, slug)) ?? "{}");
    return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
  } catch {
    return {};
  }
}

export function saveRightAnswers(track, slug, answers) {
  write(answersKey(track, slug), JSON.stringify(answers));
}

/** Done, for course progress: a lesson marked complete, a challenge solved. */
export function isDone(track, slug, kind) {
  return kind === "lesson" ? isComplete(track, slug) : isSolved(track, slug);
}
