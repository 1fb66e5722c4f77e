// The service worker, at the site's root so that its scope is the whole course. It does two things:
//
// Offline: on install it caches every file of the site, Pyodide's included, in a cache named after the
// build; a later build is a new service worker (the build writes its version into this file), which
// caches the new site and deletes the old caches. Pages come from the network when it answers, so an
// update shows at once, and from the cache when it does not; everything else comes from the cache.
//
// Cross-origin isolation on hosts that cannot set headers: the COOP/COEP headers are added to the pages
// and to the worker's script (the coi-serviceworker pattern), so SharedArrayBuffer is available and a
// runaway case is interrupted in milliseconds instead of restarting Python.
//
// The dev server's live-reload URLs (/__loopcraft/) are never touched; the dev server's pages do not
// register this worker at all (see offline.js).

/* global __VERSION__, __PRECACHE__ */
const CACHE = `loopcraft-site-${__VERSION__}`;
const PREFIX = "loopcraft-site-";
const scope = new URL(self.registration.scope);
const isolationHeaders = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(__PRECACHE__.map((path) => new URL(path, scope).href));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

function isolated(response) {
  // Opaque and error responses cannot be rebuilt, and need no headers.
  if (response.type !== "basic" && response.type !== "default") return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(isolationHeaders)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const url = new URL(request.url);
  url.hash = "";
  const hit = await cache.match(url.href);
  if (hit || !url.pathname.endsWith("/")) return hit;
  url.pathname += "index.html";
  return cache.match(url.href);
}

async function page(request) {
  try {
    return isolated(await fetch(request));
  } catch (error) {
    const cached = await fromCache(request);
    if (!cached) throw error;
    return isolated(cached);
  }
}

async function file(request) {
  const response = (await fromCache(request)) ?? (await fetch(request));
  // Only the worker's script needs the headers (a worker's isolation comes from its own response); other
  // files go out as cached, which keeps the browser's compiled-code cache for the WebAssembly.
  return request.destination === "worker" ? isolated(response) : response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (url.pathname.startsWith("/__loopcraft/")) return;
  event.respondWith(request.mode === "navigate" ? page(request) : file(request));
});
