// Keeps the learner's code in localStorage, one entry per challenge, saved as
// they type (debounced) so a reload or a closed tab loses nothing.

const DELAY_MS = 300;

/**
 * key: the challenge's storage key; starter: the starter code (not stored:
 * code equal to it removes the entry, so a later change to the starter shows);
 * onStatus("saving" | "saved" | "failed" | "held"); onOtherTab(text): another
 * tab saved `text` for this challenge.
 */
// signal: aborts when the page is left without unloading (navigate.js): the pending save is written then.
export function createAutosave({ key, starter, onStatus, onOtherTab = () => {}, signal }) {
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
  addEventListener("pagehide", write, { signal });
  signal?.addEventListener("abort", write);

  // Fired only in the tabs that did not write; a removed entry means the other tab is back at the starter.
  addEventListener("storage", (event) => {
    if (event.storageArea === localStorage && event.key === key) onOtherTab(event.newValue ?? starter);
  }, { signal });

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

/** The learner's saved code for a challenge, or null (code equal to the starter is not kept). */
export const savedCode = (track, slug) => read(storageKey(track, slug));

/** Whether the learner has code of their own for the challenge. */
export const hasOwnCode = (track, slug) => savedCode(track, slug) !== null;

// A challenge is solved once a run passed every case, hidden ones included.
// The course index reads these marks; nothing else knows the learner's progress.
const solvedKey = (track, slug) => `loopcraft:solved:${track}/${slug}`;

export function isSolved(track, slug) {
  return read(solvedKey(track, slug)) !== null;
}

export function markSolved(track, slug) {
  write(solvedKey(track, slug), new Date().toISOString());
}

// The key to the reference solution that the passing run derived (solution.js), kept beside the solved mark and
// travelling with it in an export. Space-separated: an import adds the file's to this browser's (transfer.js), and
// a site rebuilt with another solution has another key, so the page tries each, newest first.
const unlockKeysKey = (track, slug) => `loopcraft:unlock:${track}/${slug}`;
export const UNLOCK_KEYS_KEPT = 4;

export const unlockKeys = (track, slug) => (read(unlockKeysKey(track, slug)) ?? "").split(" ").filter(Boolean);

export function saveUnlockKey(track, slug, key) {
  write(unlockKeysKey(track, slug), mergeUnlockKeys(unlockKeys(track, slug).join(" "), key));
}

/** Two kept lists of keys as one: `newer`'s first, no key twice, at most UNLOCK_KEYS_KEPT. */
export function mergeUnlockKeys(older, newer) {
  const keys = [...new Set([...newer.split(" "), ...older.split(" ")].filter(Boolean))];
  return keys.slice(0, UNLOCK_KEYS_KEPT).join(" ");
}

// How many hints the learner has revealed, so they stay revealed on a reload.
const hintsKey = (track, slug) => `loopcraft:hints:${track}/${slug}`;

export function revealedHints(track, slug) {
  return Number.parseInt(read(hintsKey(track, slug)) ?? "0", 10) || 0;
}

export function saveRevealedHints(track, slug, count) {
  write(hintsKey(track, slug), String(count));
}

// What the learner typed into "Try your own scenario": the arguments as a Python call's (scenario.js).
const scenarioKey = (track, slug) => `loopcraft:scenario:${track}/${slug}`;

export const loadScenario = (track, slug) => read(scenarioKey(track, slug));

export function saveScenario(track, slug, text) {
  write(scenarioKey(track, slug), text);
}

// The version of the challenge (starter code and cases, see challengeVersion) the saved code was written
// against, so that a site update that changes them is pointed out on the page.
const baseKey = (track, slug) => `loopcraft:base:${track}/${slug}`;

export const savedBase = (track, slug) => read(baseKey(track, slug));

export function saveBase(track, slug, version) {
  write(baseKey(track, slug), version);
}

/** A short fingerprint of the challenge's starter and cases (FNV-1a, 32 bits: it spots changes, no more). */
export function challengeVersion({ starter, cases }) {
  // Hidden cases' digests are left out: their salt changes with the reference solution, not with the case.
  const text = JSON.stringify([starter, cases.map((c) => [c.name, c.run, c.expect.expected ?? null])]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

// The editor's font size in pixels, one for every challenge.
const FONT_KEY = "loopcraft:editor-font-size";

export const fontSize = () => Number.parseInt(read(FONT_KEY) ?? "", 10) || null;

export function saveFontSize(px) {
  write(FONT_KEY, String(px));
}

// Versions of a challenge's code an import or "Start from my code" replaced (transfer.js, start-from.js), kept so
// that nothing is lost: `loopcraft:copy:<track>/<slug>:<ISO date>:<from>`, listed and loadable on the challenge's
// page. `from` says where the version was (COPY_FROM); copies kept before it was written down have none.
const COPY_PREFIX = (id) => `loopcraft:copy:${id}:`;
export const COPY_FROM = {
  file: "the imported file's code, not chosen",
  browser: "this browser's code, replaced by the imported file's",
  editor: "the editor's code, replaced by your code of an earlier challenge",
};

/** True when kept; `from`, a key of COPY_FROM. */
export function saveCopy(id, text, from, date = new Date()) {
  if (!Object.hasOwn(COPY_FROM, from)) throw new Error(`not a copy's origin: ${from}`);
  // A version already kept is not kept twice (importing one file again added a copy each time).
  const kept = Object.entries(entries()).some(([key, value]) => key.startsWith(COPY_PREFIX(id)) && value === text);
  return kept || write(`${COPY_PREFIX(id)}${date.toISOString()}:${from}`, text);
}

/** [{key, date, from, text}] of challenge `track/slug`'s kept copies, newest first (`from` null when unknown). */
export function copies(track, slug) {
  const prefix = COPY_PREFIX(`${track}/${slug}`);
  return Object.entries(entries())
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, text]) => {
      const [, date, from = null] = key.slice(prefix.length).match(/^(.*?Z)(?::([a-z]+))?$/) ?? [null, key.slice(prefix.length)];
      return { key, date, from: Object.hasOwn(COPY_FROM, from ?? "") ? from : null, text };
    })
    .sort((a, b) => (a.date < b.date ? 1 : -1));
}

/** Every `loopcraft:` entry of localStorage, {key: value}: what an export carries, keys added later included. */
export function entries() {
  const found = {};
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.startsWith("loopcraft:")) found[key] = localStorage.getItem(key);
    }
  } catch {
    // Storage unavailable: nothing is kept, so nothing is found.
  }
  return found;
}

export { write as writeKey };

export function removeKey(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing kept to remove.
  }
}

// Storage can be disabled or full (some private modes): progress is then simply not kept.
function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** True when kept; storage full or disabled keeps nothing, and the page works the same. */
function write(key, value) {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
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

/** Done, for course progress: a lesson or the lab marked complete (the lab also by running the learner's loop,
 * lab.js), a challenge solved. */
export function isDone(track, slug, kind) {
  return kind === "lesson" || kind === "lab" ? isComplete(track, slug) : isSolved(track, slug);
}

// The loop lab's fourth column (lab.js), run again on the next visit: {slug} of a challenge's saved code, or
// {file, code} of a loaded .py file.
const labLoopKey = (track, slug) => `loopcraft:lab-loop:${track}/${slug}`;

export function labLoopChoice(track, slug) {
  try {
    const choice = JSON.parse(read(labLoopKey(track, slug)) ?? "null");
    return choice && typeof choice === "object" && !Array.isArray(choice) ? choice : null;
  } catch {
    return null;
  }
}

export function saveLabLoopChoice(track, slug, choice) {
  write(labLoopKey(track, slug), JSON.stringify(choice));
}
