// Registers the service worker (sw.js): the course then works offline, and pages get cross-origin
// isolation even from a host that cannot send the COOP/COEP headers.
//
// `after`: a promise to wait for first, so that on a first visit the service worker's caching of the site
// does not compete with Python's own download (Pyodide is fetched once, then revalidated into the cache).
// A page that is not isolated cannot wait: the service worker registers at once, and the page reloads once
// when it takes control, this time isolated.
//
// The dev server's pages (they carry its live-reload script) register it as `sw.js?live`, which takes every file
// from the network while it answers and from its cache only when it does not: live reload sees every rebuilt file,
// and the course still works offline after one visit.
const RELOADED = "loopcraft:isolation-reload";

export async function registerServiceWorker(siteRoot, after = Promise.resolve()) {
  if (!("serviceWorker" in navigator)) return;
  // A page the dev server's worker served from its cache (offline) has no live script: that worker stays.
  const live = document.querySelector('script[src^="/__loopcraft/"]') !== null
    || new URL(navigator.serviceWorker.controller?.scriptURL ?? "/", location.href).searchParams.has("live");
  if (!crossOriginIsolated) {
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      // Once per tab: a host or browser where even the service worker cannot isolate the page must not loop.
      if (crossOriginIsolated || sessionStorage.getItem(RELOADED)) return;
      sessionStorage.setItem(RELOADED, "1");
      location.reload();
    });
  } else {
    await after.catch(() => {});
  }
  try {
    await navigator.serviceWorker.register(new URL(live ? "sw.js?live" : "sw.js", siteRoot), { scope: siteRoot.href });
  } catch (error) {
    console.warn(`Offline use is unavailable: ${error.message}`);
  }
}
