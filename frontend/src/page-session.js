// The Python session of a page that runs code (a challenge, a lesson, the lab): it adopts the worker the page's
// <head> started (templates/python_page.html, challenge.html), and lets the service worker cache the site once
// Python is idle.
import { browserSpawner, createSession } from "./session.js";
import { registerServiceWorker } from "./offline.js";

// The key a browser's localStorage may set to "off" for the same effect as ?background=off on every page. Not
// under "loopcraft:", whose entries are the learner's progress and travel with an export (storage.js).
const BACKGROUND_KEY = "loopcraft.background";

// Background work: the memory snapshot, and the service worker's caching of the site once Python is ready and no
// run is in progress. It is off on a page opened with ?background=off, or in a browser whose localStorage says so:
// for tests that need a quiet page, or that open one page and close it (the snapshot would only cost them a second
// Python start). A page that needs the service worker for its isolation still gets it.
function backgroundWanted() {
  if (new URLSearchParams(location.search).get("background") === "off") return false;
  try {
    return localStorage.getItem(BACKGROUND_KEY) !== "off";
  } catch {
    return true; // storage refused: the default
  }
}

export function createPageSession({ timeLimitMs, onState }) {
  const siteRoot = new URL(document.body.dataset.siteRoot, document.baseURI);
  // The asset version rides on the page script's own URL; the worker gets the same one.
  const workerUrl = new URL(`assets/worker.js${new URL(import.meta.url).search}`, siteRoot).href;
  const background = backgroundWanted();
  const session = createSession({
    spawn: browserSpawner(workerUrl, window.loopcraftWorker),
    timeLimitMs,
    background,
    renewEachRun: true,
    onState: (state, detail) => {
      // How Python started: "restored" from the snapshot an earlier page made, or "missing" (booted); whether this
      // start is keeping a snapshot for the next page (decided as Python starts, never later); where its time went.
      if (state === "ready") {
        document.body.dataset.pythonStart = detail.snapshot ?? "plain";
        document.body.dataset.snapshotKeeping = String(Boolean(detail.keeping));
        document.body.dataset.pythonPhases = JSON.stringify(detail.phases ?? {}); // read by bench/run.py
      }
      onState(state, detail);
    },
  });
  registerServiceWorker(siteRoot, background ? session.whenIdle() : new Promise(() => {}));
  return session;
}
