// The service worker, at the site's root so that its scope is the whole course. It does two things:
//
// Offline: on install it caches every file of the site, Pyodide's included, in a cache named after the
// build; a later build is a new service worker (the build writes its version into this file), which
// caches the new site and deletes the old caches. Pages come from the network when it answers, so an
// update shows at once, and from the cache when it does not; everything else comes from the cache.
//
// Cross-origin isolation and the Content-Security-Policy on hosts that cannot set headers: the build's
// security headers (loopcraft/site/headers.py) are added to the pages and to the worker's script (the
// coi-serviceworker pattern), so SharedArrayBuffer is available and a runaway case is interrupted in
// milliseconds instead of restarting Python, and a page connects only to its own origin.
//
// Cache Storage can be written by any script of the origin, so a cached copy is trusted only if its bytes
// have the SHA-256 the build wrote beside its URL: anything else is dropped and fetched afresh, and what the
// network sends is cached only if it matches. Code run in one page cannot plant code into the others.
//
// Pyodide's WebAssembly is left to the network and the browser's HTTP cache while the network answers, for the
// compiled code Chromium keeps only beside such a copy (sw-requests.js); offline, the page's worker asks for this
// worker's copy.
//
// The dev server's live-reload URLs (/__loopcraft/) are never touched. The dev server's pages register this worker
// as `sw.js?live` (offline.js): every file then comes from the network while it answers, so that a page reloaded
// after a rebuild gets the rebuilt files, and from the cache only when it does not.

import { CACHED_COPY, MODULE_PATH } from "./sw-requests.js";

/* global __VERSION__, __PRECACHE__, __OPTIONAL__, __HEADERS__ */
const CACHE = `loopcraft-site-${__VERSION__}`;
const PREFIX = "loopcraft-site-";
const scope = new URL(self.registration.scope);
// {absolute URL: hex SHA-256 of the file's bytes}
const expected = new Map(Object.entries(__PRECACHE__).map(([path, hash]) => [new URL(path, scope).href, hash]));
const pyodideModule = new URL(MODULE_PATH, scope).href;
// Files the site works without (the snapshot of Python it ships: a page boots Python instead): one whose bytes are not
// the build's is left uncached, rather than failing the install and the whole course offline with it.
const optional = new Set(__OPTIONAL__.map((path) => new URL(path, scope).href));
const live = new URL(self.location.href).searchParams.has("live");

async function sha256(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const intact = async (url, response) => response.ok && expected.get(url) === (await sha256(response));

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all([...expected.keys()].map(async (url) => {
      const response = await fetch(url, { cache: "no-cache" });
      // A host half-way through deploying another build: install fails, and the next visit tries again.
      if (await intact(url, response)) await cache.put(url, response);
      else if (!optional.has(url)) throw new Error(`${url} differs from this build's`);
    }));
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
  for (const [name, value] of Object.entries(__HEADERS__)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// The cached copy of a request, only if its bytes are the build's; a tampered one is deleted.
async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const url = new URL(request.url);
  url.hash = "";
  if (!expected.has(url.href) && url.pathname.endsWith("/")) url.pathname += "index.html";
  const hit = await cache.match(url.href);
  if (!hit) return undefined;
  if (await intact(url.href, hit)) return hit; // the cached object itself, which keeps the scripts' compiled code
  await cache.delete(url.href);
  return undefined;
}

// From the network; a file of the build whose copy was missing or dropped is cached again if it matches.
async function fetchAndKeep(request) {
  const response = await fetch(request);
  const url = request.url.split("#")[0];
  if (expected.has(url) && (await intact(url, response))) {
    await (await caches.open(CACHE)).put(url, response.clone());
  }
  return response;
}

// Pages' order, and every file's from the dev server (see `live`): what the network has is newer.
async function fromNetworkFirst(request) {
  try {
    return await fetchAndKeep(request);
  } catch (error) {
    const cached = await fromCache(request);
    if (!cached) throw error;
    return cached;
  }
}

const page = async (request) => isolated(await fromNetworkFirst(request));

async function file(request) {
  const response = live ? await fromNetworkFirst(request) : (await fromCache(request)) ?? (await fetchAndKeep(request));
  // Only the worker's script needs the headers (a worker's isolation comes from its own response); other
  // files go out as cached, with the compiled code Chromium keeps beside a cached script (a trace of a second visit
  // shows it read for every script). Not for Pyodide's WebAssembly, which is served from here only offline.
  return request.destination === "worker" ? isolated(response) : response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (url.pathname.startsWith("/__loopcraft/")) return;
  if (url.href === pyodideModule && !request.headers.has(CACHED_COPY)) return; // to the network (sw-requests.js)
  event.respondWith(request.mode === "navigate" ? page(request) : file(request));
});
