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

// The document's one session, made by the first page that runs code and kept on `window` for every page the
// navigation brings in after it (navigate.js; each page script is a bundle of its own, with its own copy of this
// module): its worker and its Python stay, and each run starts in a fresh interpreter all the same (renewEachRun:
// reset in place after every run), so nothing of the last page remains.
function documentSession(timeLimitMs, onState) {
  const siteRoot = new URL(document.body.dataset.siteRoot, document.baseURI);
  // The asset version rides on the page script's own URL; the worker gets the same one.
  const workerUrl = new URL(`assets/worker.js${new URL(import.meta.url).search}`, siteRoot).href;
  const background = backgroundWanted();
  const spawn = browserSpawner(workerUrl, window.loopcraftWorker);
  delete window.loopcraftWorker; // adopted: a later session of the document starts its own
  let starts = 0;
  // page: the onState of the page shown, told from the first state on ("loading", as the session is made); last: the
  // last state; started: the detail of its "ready".
  const shared = { page: onState, last: null, started: null };
  shared.session = createSession({
    // Counted on <html>, which outlives every page of the document: a test sees that the next page kept the worker.
    spawn: (role) => {
      document.documentElement.dataset.workerStarts = String(++starts);
      return spawn(role);
    },
    timeLimitMs,
    background,
    renewEachRun: true,
    onState: (state, detail) => {
      shared.last = { state, detail };
      // How Python started: "restored" from the snapshot an earlier page made, or "missing" (booted); whether this
      // start is keeping a snapshot for the next page (decided as Python starts, never later); where its time went.
      if (state === "ready") {
        shared.started = detail;
        showStart(detail.snapshot ?? "plain", detail);
      }
      shared.page?.(state, detail);
    },
  });
  registerServiceWorker(siteRoot, background ? shared.session.whenIdle() : new Promise(() => {}));
  return shared;
}

function showStart(start, detail) {
  document.body.dataset.pythonStart = start;
  document.body.dataset.snapshotKeeping = String(Boolean(detail.keeping));
  document.body.dataset.pythonPhases = JSON.stringify(start === "kept" ? {} : (detail.phases ?? {})); // bench/run.py
}

// The page's view of the document's session: its states go to `onState` until `signal` aborts (the page is left),
// a run takes the page's time limit unless it names one, and leave() stops the run in progress and waits for it
// to end, as the navigation does before the next page comes in. A page opened by the navigation is told the state
// the session is in ("ready" with snapshot "kept" when Python is up).
export function createPageSession({ timeLimitMs, onState, signal }) {
  // One whose Python failed to start is not handed on: the next page tries again, as a page loaded afresh would.
  if (window.loopcraftSession?.last?.state === "error") delete window.loopcraftSession;
  const inherited = window.loopcraftSession;
  const shared = (window.loopcraftSession = inherited ?? documentSession(timeLimitMs, onState));
  const { session } = shared;
  const runs = new Set();
  shared.page = onState;
  signal?.addEventListener("abort", () => shared.page === onState && (shared.page = null));
  // A session of an earlier page: its state told once this page's set-up is over, as a worker's "ready" always
  // comes (the page may not be drawn yet). A new one tells its own states as they come.
  if (inherited) {
    queueMicrotask(() => {
      if (shared.page !== onState) return;
      const { state, detail } = shared.last;
      const up = state === "ready" || state === "finished";
      if (up) showStart("kept", shared.started);
      onState(up ? "ready" : state, up ? { ...shared.started, snapshot: "kept" } : detail);
    });
  }
  return {
    run(spec, hooks) {
      if (signal?.aborted) return Promise.reject(new Error("this page was left"));
      const running = session.run({ timeLimitMs, ...spec }, hooks);
      runs.add(running);
      running.finally(() => runs.delete(running)).catch(() => {});
      return running;
    },
    stop: session.stop,
    whenReady: session.whenReady,
    whenIdle: session.whenIdle,
    async leave() {
      session.stop();
      await Promise.allSettled(runs);
    },
  };
}
