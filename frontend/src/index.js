// Page entry of the course index: marks the lessons completed and the challenges solved in this browser,
// and shows the progress through each track and each part. The page reads fine without it.
import { h } from "./dom.js";
import { isDone } from "./storage.js";
import { registerServiceWorker } from "./offline.js";

registerServiceWorker(new URL(document.body.dataset.siteRoot, document.baseURI));

const isLinkDone = (link) => isDone(link.dataset.track, link.dataset.slug, link.dataset.kind);

for (const track of document.querySelectorAll(".track")) {
  const links = [...track.querySelectorAll('[data-testid="challenge-link"]')];
  const done = links.filter(isLinkDone);
  for (const link of done) {
    link.dataset.solved = "true";
    link.querySelector(".challenge-meta").prepend(
      h("span", { class: "solved-mark", "data-testid": "solved-mark" }, link.dataset.kind === "lesson" ? "Complete" : "Solved"));
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
    action.replaceWith(h("span", { class: "progress-done" }, "Course complete. Well done!"));
  }
}
