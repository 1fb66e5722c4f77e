// The Python session of a page that runs code (a lesson, the lab): it adopts the worker the page's <head>
// started (templates/python_page.html), and lets the service worker cache the site once Python is idle.
import { browserSpawner, createSession } from "./session.js";
import { registerServiceWorker } from "./offline.js";

export function createPageSession({ timeLimitMs, onState }) {
  const siteRoot = new URL(document.body.dataset.siteRoot, document.baseURI);
  // The asset version rides on the page script's own URL; the worker gets the same one.
  const workerUrl = new URL(`assets/worker.js${new URL(import.meta.url).search}`, siteRoot).href;
  const session = createSession({ spawn: browserSpawner(workerUrl, window.loopcraftWorker), timeLimitMs, onState });
  registerServiceWorker(siteRoot, session.whenIdle());
  return session;
}
