// Page entry of the course index: marks the lessons completed and the challenges solved in this browser,
// shows the progress through each track and each part, and exports or imports the learner's work. The page
// reads fine without it. The 404 page loads it too, for the header's theme toggle (it has no tracks).
import { h } from "./dom.js";
import { hasOwnCode, isDone } from "./storage.js";
import { registerServiceWorker } from "./offline.js";
import { setupThemeToggle } from "./theme.js";
import { setupTransfer } from "./transfer.js";
import { startPage } from "./navigate.js";

// Once per document: a page the navigation brings in later has its service worker already.
registerServiceWorker(new URL(document.body.dataset.siteRoot, document.baseURI));

// "3 more cases are checked only by your instructor's grader.", after `before`.
const privateText = (count, before = "") =>
  `${before}${count} more case${count === 1 ? " is" : "s are"} checked only by your instructor's grader.`;

// What a done item's card says: a lesson marked complete, the lab marked complete or run with the learner's loop,
// a challenge solved.
const MARKS = { lesson: "Complete", lab: "Done", challenge: "Solved" };

const isLinkDone = (link) => isDone(link.dataset.track, link.dataset.slug, link.dataset.kind);

// The page, set up on the document's page: now, and again each time the navigation brings a course index in
// (navigate.js). Whatever it adds outside its own elements goes when `signal` aborts.
function mount({ signal }) {
  setupThemeToggle({ signal });

  function showProgress() {
    for (const track of document.querySelectorAll(".track")) {
      const links = [...track.querySelectorAll('[data-testid="challenge-link"]')];
      const done = links.filter(isLinkDone);
      for (const link of links) {
        // Drawn afresh each time: an import may have changed any of them.
        link.querySelector(".solved-mark, .started-mark")?.remove();
        link.querySelector(".private-note")?.remove();
        const isIt = done.includes(link);
        if (isIt) link.dataset.solved = "true";
        else delete link.dataset.solved;
        const mark = isIt
          ? h("span", { class: "solved-mark", "data-testid": "solved-mark" }, MARKS[link.dataset.kind] ?? "Solved")
          : link.dataset.kind !== "lesson" && hasOwnCode(link.dataset.track, link.dataset.slug)
            ? h("span", { class: "started-mark", "data-testid": "started-mark" }, "Started") : null;
        if (mark) link.querySelector(".challenge-meta").prepend(mark);
        // "Solved" is this page's cases; the instructor's grader runs more, which no page has.
        const extra = Number(link.dataset.private) || 0;
        if (isIt && extra) link.querySelector(".challenge-text").append(h("span", { class: "private-note", "data-testid": "private-note" }, privateText(extra, "Solved on its page; ")));
      }
      for (const part of track.querySelectorAll(".part")) {
        const inPart = [...part.querySelectorAll('[data-testid="challenge-link"]')];
        part.querySelector('[data-testid="part-progress"]').textContent =
          `${inPart.filter((link) => link.dataset.solved === "true").length} / ${inPart.length}`;
      }

      const progress = track.querySelector('[data-testid="progress"]');
      const share = links.length ? done.length / links.length : 0;
      progress.querySelector('[role="progressbar"]').setAttribute("aria-valuenow", String(done.length));
      progress.querySelector(".progress-fill").style.width = `${100 * share}%`;
      progress.querySelector(".progress-count").textContent = `${done.length} of ${links.length} done`;

      // The call to action points at the first lesson or challenge not done yet, in course order.
      const action = progress.querySelector(".progress-next");
      const upNext = links.find((link) => link.dataset.solved !== "true");
      if (!action || !done.length) continue;
      if (upNext) {
        action.href = upNext.href;
        action.textContent = `Continue with ${upNext.dataset.title}`;
      } else {
        const extra = links.reduce((sum, link) => sum + (Number(link.dataset.private) || 0), 0);
        action.replaceWith(h("span", { class: "progress-done", "data-testid": "course-done" }, "Course complete in this browser. Well done!",
          extra ? h("span", { class: "private-note" }, ` ${privateText(extra)}`) : null));
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
}

startPage(mount);
