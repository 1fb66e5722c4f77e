// Page entry of the course index: marks the challenges this browser has solved, shows the progress
// through each track, and exports or imports the learner's work. The page reads fine without it.
// The 404 page loads it too, for the header's theme toggle (it has no tracks).
import { h } from "./dom.js";
import { hasOwnCode, isSolved } from "./storage.js";
import { registerServiceWorker } from "./offline.js";
import { setupThemeToggle } from "./theme.js";
import { setupTransfer } from "./transfer.js";

registerServiceWorker(new URL(document.body.dataset.siteRoot, document.baseURI));
setupThemeToggle();

function showProgress() {
  for (const track of document.querySelectorAll(".track")) {
    const links = [...track.querySelectorAll('[data-testid="challenge-link"]')];
    const solved = links.filter((link) => isSolved(link.dataset.track, link.dataset.slug));
    for (const link of links) {
      // Drawn afresh each time: an import may have changed any of them.
      link.querySelector(".solved-mark, .started-mark")?.remove();
      if (solved.includes(link)) link.dataset.solved = "true";
      const mark = solved.includes(link) ? h("span", { class: "solved-mark", "data-testid": "solved-mark" }, "Solved")
        : hasOwnCode(link.dataset.track, link.dataset.slug)
          ? h("span", { class: "started-mark", "data-testid": "started-mark" }, "Started") : null;
      if (mark) link.querySelector(".challenge-meta").prepend(mark);
    }

    const progress = track.querySelector('[data-testid="progress"]');
    const share = links.length ? solved.length / links.length : 0;
    progress.querySelector('[role="progressbar"]').setAttribute("aria-valuenow", String(solved.length));
    progress.querySelector(".progress-fill").style.width = `${100 * share}%`;
    progress.querySelector(".progress-count").textContent = `${solved.length} of ${links.length} solved`;

    // The call to action points at the first challenge not solved yet, in course order.
    const action = progress.querySelector(".progress-next");
    const upNext = links.find((link) => link.dataset.solved !== "true");
    if (!action || !solved.length) continue;
    if (upNext) {
      action.href = upNext.href;
      action.textContent = `Continue with ${upNext.dataset.title}`;
    } else {
      action.replaceWith(h("span", { class: "progress-done" }, "Course complete. Well done!"));
    }
  }
}
showProgress();

const transfer = document.querySelector('[data-testid="transfer"]');
if (transfer) {
  const titles = Object.fromEntries([...document.querySelectorAll('[data-testid="challenge-link"]')]
    .map((link) => [`${link.dataset.track}/${link.dataset.slug}`, link.dataset.title]));
  setupTransfer(transfer, titles, showProgress);
}
