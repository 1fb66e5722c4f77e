// The browser's module worker: Pyodide and the grader, served from this site (never a CDN).
import { sparse, whole } from "./snapshot-format.js";
import { CACHED_COPY } from "./sw-requests.js";
import { compileAhead, serveWorker } from "./worker-core.js";

/* global __SNAPSHOT__ */
// The memory snapshot the site ships (loopcraft/site/snapshot.py: made by the build under Node, the way a page makes its
// own): its file in py/, named after its bytes, that file's SHA-256 as Subresource Integrity, and the length of the
// snapshot itself, {file, integrity, length}.
const SHIPPED = __SNAPSHOT__;

const pyBase = new URL("../py/", import.meta.url);
const indexURL = new URL("../pyodide/", import.meta.url).href;
// Asked for at once, rather than one after the other once Pyodide starts loading: its loader (not imported statically,
// so that this script need not wait for it), its interpreter's script and its WebAssembly, compiled while the snapshot
// is read or arrives. Pyodide's own request for the module is given a copy of this response, taken before the compile
// reads it (the module cache drops the copy's body, unread): it is fetched once. Not the response itself: dropping its
// body could come before the compile had begun reading it, and end that compile.
const pyodide = import("../pyodide/pyodide.mjs");
pyodide.catch(() => {}); // a failure is told when Python starts (loadPyodide)
const pyodideScript = import("../pyodide/pyodide.asm.mjs");
pyodideScript.catch(() => {}); // a failure is told when Python starts (loadPyodide)
const wasmUrl = new URL("pyodide.asm.wasm", indexURL).href;
const fetchOnce = self.fetch;
// From the network (the HTTP cache), for the compiled code the browser keeps beside it; offline, the service worker's
// copy (sw-requests.js).
const wasmResponse = fetchOnce(wasmUrl).catch(() => fetchOnce(wasmUrl, { headers: { [CACHED_COPY]: "1" } }));
let forPyodide = wasmResponse.then((response) => response.clone());
forPyodide.catch(() => {});
compileAhead(wasmResponse);
self.fetch = (resource, ...rest) => {
  if (forPyodide === null || String(resource) !== wasmUrl) return fetchOnce(resource, ...rest);
  const response = forPyodide;
  forPyodide = null;
  return response;
};
// Asked for at once: the grader's files are needed before Python is.
const manifest = fetch(new URL("manifest.json", pyBase)).then((response) => response.json());

async function readGraderFiles() {
  return Promise.all(
    (await manifest).files.map(async (path) => {
      const response = await fetch(new URL(path, pyBase));
      if (!response.ok) throw new Error(`cannot load ${path}: HTTP ${response.status}`);
      return { path, text: await response.text() };
    }),
  );
}

// A page's own snapshots live in Cache Storage, outside the service worker's versioned caches, under a key naming the
// snapshot the site ships: it changes with the Pyodide and the grader a snapshot is made from, and the form it is kept
// in (snapshot-format.js's, the shipped one's). A snapshot from any other build is not restored.
const SNAPSHOT_CACHE = "loopcraft-snapshot";
const OWN_SNAPSHOT = new URL(`../__snapshot/${SHIPPED.file}`, pyBase).href;

// That cache, opened while Python starts (find), so that keeping a snapshot issues its write in the turn that keeps it
// (keep). A case the page sent early runs right after "ready" and yields to nothing until it ends: a write that still
// waited for the cache to open waited for the case, and a first visit busy with a loop from the start kept nothing.
// Cache Storage finishes a write it was given without this thread.
let snapshotCache = null; // the cache, once open
let opening = null;
function openSnapshotCache() {
  if (!opening) {
    const failed = (error) => {
      opening = null; // the next keep tries again
      throw error;
    };
    opening = caches.open(SNAPSHOT_CACHE).then((cache) => (snapshotCache = cache), failed);
    opening.catch(() => {}); // told to whoever waits for it (find, keep), never a failure of the worker's own
  }
  return opening;
}

// Pyodide sizes Python's memory by a snapshot's length, and makes its module (Emscripten's, the WebAssembly
// instantiated) before it restores the snapshot into it (loadPyodide, in Pyodide's src/js/pyodide.ts). Given a buffer
// of the right length at once, it makes the module while the snapshot is still arriving, and the module is handed
// over only once the buffer is filled (loadPyodide below): {bytes given to Pyodide: the promise they are whole by}.
const filling = new WeakMap();

// A snapshot's bytes, made whole; a failure is told when Python's start asks for them (worker-core.js, restoreOrLoad),
// not before, as an error of the worker's own.
function restorable(bytes) {
  const snapshot = bytes.then(whole);
  snapshot.catch(() => {});
  return snapshot;
}

// The shipped snapshot, fetched now: the browser checks its bytes against the build's hash (the fetch fails otherwise),
// on a first visit as on any other (the service worker, when it serves it from its cache, checks them too). Once
// restored, it is kept as this browser's own (in the form it came in, the form a page keeps its own in), where the page
// may do background work: later pages read it straight from Cache Storage, as a snapshot a page made itself, instead of
// through the service worker, which reads all of it to check it before it answers.
function shippedSnapshot() {
  const fetched = fetchOnce(new URL(SHIPPED.file, pyBase), { integrity: SHIPPED.integrity }).then((response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  // Handed to Pyodide at once, filled as it arrives (see `filling`).
  const snapshot = new Uint8Array(SHIPPED.length);
  const bytes = Promise.resolve(snapshot);
  let arrived = null; // set before the restore can start, which waits for `filled` (reactions run in order)
  fetched.then((stored) => (arrived = stored), () => {});
  const filled = fetched.then((stored) => whole(stored, snapshot));
  filled.catch(() => {}); // told when Python's start waits for it
  filling.set(bytes, filled);
  return { bytes, shipped: true, keep: () => keep(arrived) };
}

// The page's own snapshot if it kept one, else the shipped one.
async function ownOrShipped() {
  // A first visit answers at once, without waiting for the cache to be made.
  const kept = await caches.has(SNAPSHOT_CACHE);
  openSnapshotCache();
  if (!kept) return shippedSnapshot();
  const own = await (await openSnapshotCache()).match(OWN_SNAPSHOT);
  return own ? { bytes: restorable(own.arrayBuffer()) } : shippedSnapshot();
}

// A snapshot in snapshot-format.js's form, kept as this browser's own (the only one: any other is dropped).
// Written at once where the cache is open already (see snapshotCache).
function keep(stored) {
  const write = async (cache) => {
    await cache.put(OWN_SNAPSHOT, new Response(stored, { headers: { "Content-Type": "application/octet-stream" } }));
    for (const old of await cache.keys()) if (old.url !== OWN_SNAPSHOT) await cache.delete(old);
  };
  return snapshotCache ? write(snapshotCache) : openSnapshotCache().then(write);
}

let handedOut = null; // what find gave last: what discard drops
const snapshots = {
  async find() {
    handedOut = await ownOrShipped();
    return handedOut;
  },
  save: (bytes) => keep(sparse(bytes)),
  // Python then boots as it would without one (and a page that may, keeps its own: worker-core.js).
  async discard(why) {
    const which = handedOut?.shipped ? "the site's" : "this browser's";
    console.warn(`Python starts without ${which} memory snapshot, which could not be restored: ${why?.message ?? why}`);
    if (handedOut?.shipped) return;
    [snapshotCache, opening] = [null, null]; // a deleted cache keeps nothing written into it
    await caches.delete(SNAPSHOT_CACHE);
    openSnapshotCache(); // for the snapshot the boot that follows keeps
  },
};

serveWorker({
  // Called at once, without waiting for the interpreter's script: loadPyodide asks for the standard library and its
  // lock file first, so they arrive while the script does, not after it.
  loadPyodide: async (options) => {
    const filled = filling.get(options._loadSnapshot);
    const createPyodideModule = async (settings) => {
      const module = await (await pyodideScript).default(settings);
      if (filled) await filled;
      return module;
    };
    return (await pyodide).loadPyodide({ ...options, indexURL, createPyodideModule });
  },
  readGraderFiles,
  post: (message) => self.postMessage(message),
  listen: (handler) => self.addEventListener("message", (event) => handler(event.data)),
  // Cancelled, neither reaches the page as an error of the worker's.
  onUncaught: (handler) => {
    self.addEventListener("unhandledrejection", (event) => {
      event.preventDefault();
      handler(event.reason);
    });
    self.addEventListener("error", (event) => {
      event.preventDefault();
      handler(event.error ?? event.message);
    });
  },
  // Cache Storage needs a secure context (https or localhost); elsewhere Python simply starts plainly.
  snapshots: globalThis.caches ? snapshots : null,
  // The session's worker boots Python as soon as it exists; the snapshot maker must start from nothing.
  eager: self.name !== "snapshot",
  // Each Run after the first starts from the interpreter as it was ready (page-session.js, renewEachRun).
  resets: self.name !== "snapshot",
});
