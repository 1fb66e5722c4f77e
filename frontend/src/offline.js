// Registers the service worker (sw.js): the course then works offline, and pages get cross-origin
// isolation even from a host that cannot send the COOP/COEP headers.
//
// `after`: a promise to wait for first, so that on a first visit the service worker's caching of the site
// does not compete with Python's own download (Pyodide is fetched once, then revalidated into the cache).
// A page that is not isolated cannot wait: the service worker registers at once, and the page reloads once
// when it takes control, this time isolated.
//
// The dev server's pages (they carry its live-reload script) never register it, and unregister one left
// by a production build served on the same address: live reload must see every rebuilt file.
const RELOADED = "loopcraft:isolation-reload";

export async function registerServiceWorker(siteRoot, after = Promise.resolve()) {
  if (!("serviceWorker" in navigator)) return;
  if (document.querySelector('script[src^="/__loopcraft/"]')) {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    return;
  }
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
    await navigator.serviceWorker.register(new URL("sw.js", siteRoot), { scope: siteRoot.href });
  } catch (error) {
    console.warn(`Offline use is unavailable: ${error.message}`);
  }
}
