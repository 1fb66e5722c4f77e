// Keeps the learner's code in localStorage, one entry per challenge, saved as
// they type (debounced) so a reload or a closed tab loses nothing.

const DELAY_MS = 300;

/**
 * key: the challenge's storage key; starter: the starter code (not stored:
 * code equal to it removes the entry, so a later change to the starter shows);
 * onStatus("saving" | "saved" | "failed").
 */
export function createAutosave({ key, starter, onStatus }) {
  let timer = null;
  let pending = null;

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

  // A pending save must not be lost when the tab closes inside the debounce window.
  addEventListener("pagehide", write);

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
      onStatus("saving");
      clearTimeout(timer);
      timer = setTimeout(write, DELAY_MS);
    },
  };
}

export function storageKey(track, slug) {
  return `loopcraft:code:${track}/${slug}`;
}
