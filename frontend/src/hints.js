// Hints revealed one at a time, on request. How many were revealed is kept per
// challenge, so a reload shows the same ones and never gives away the next.
import { revealedHints, saveRevealedHints } from "./storage.js";

/** section: the hints section of the page (absent when the challenge has none). */
export function setupHints(section, { track, slug }) {
  if (!section) return;
  const hints = [...section.querySelectorAll(".hint-item")];
  const button = section.querySelector('[data-testid="hint-button"]');
  let shown = Math.min(revealedHints(track, slug), hints.length);

  function update() {
    hints.forEach((hint, i) => {
      hint.hidden = i >= shown;
      if (i < shown) hint.dataset.testid = "hint";
    });
    button.hidden = shown >= hints.length;
    button.textContent = `Show ${shown ? "another" : "a"} hint (${shown + 1} of ${hints.length})`;
  }

  button.addEventListener("click", () => {
    if (shown >= hints.length) return; // every hint is out (the button is hidden then)
    shown += 1;
    saveRevealedHints(track, slug, shown);
    update();
    // Focus follows the new hint, so a screen reader reads it and the keyboard is not left on a hidden button.
    const hint = hints[shown - 1];
    hint.tabIndex = -1;
    hint.focus();
  });
  update();
}
