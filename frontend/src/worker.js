// The browser's module worker: Pyodide and the grader, served from this site (never a CDN).
import { loadPyodide, version } from "../pyodide/pyodide.mjs";
import { compileAhead, serveWorker } from "./worker-core.js";

const pyBase = new URL("../py/", import.meta.url);
const indexURL = new URL("../pyodide/", import.meta.url).href;
// Asked for at once too, rather than one after the other once Pyodide starts loading: its interpreter's script and
// its WebAssembly, compiled while the snapshot is read (a second visit) or Python's other files arrive (a first).
// Pyodide's own request for the module is given a copy of this response, taken before the compile reads it (the
// module cache drops the copy's body, unread): it is fetched once. Not the response itself: dropping its body could
// come before the compile had begun reading it, and end that compile.
const pyodideScript = import("../pyodide/pyodide.asm.mjs");
pyodideScript.catch(() => {}); // a failure is told when Python starts (loadPyodide)
const wasmUrl = new URL("pyodide.asm.wasm", indexURL).href;
const fetchOnce = self.fetch;
const wasmResponse = fetchOnce(wasmUrl);
let forPyodide = wasmResponse.then((response) => response.clone());
forPyodide.catch(() => {});
compileAhead(wasmUrl, wasmResponse);
self.fetch = (resource, ...rest) => {
  if (forPyodide === null || String(resource) !== wasmUrl) return fetchOnce(resource, ...rest);
  const response = forPyodide;
  forPyodide = null;
  return response;
};
// Asked for at once: the grader's files and its hash (the snapshot's key) are needed before Python is.
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

// Snapshots live in Cache Storage, outside the service worker's versioned caches, under a key naming the
// exact Pyodide and grader they were made from, and the form they are kept in: a snapshot from any other build
// cannot be restored.
const SNAPSHOT_CACHE = "loopcraft-snapshot";
const snapshotUrl = async () => new URL(`../__snapshot/${version}-${(await manifest).hash}-sparse`, pyBase).href;

// Half of a snapshot is whole 4 KiB pages of zeros (memory Python never wrote): it is kept without them, about 15
// of its 31 MB, so that a restore reads half as much from Cache Storage. Kept as: the snapshot's length (4 bytes,
// little-endian), one byte a page (1: kept), then the kept pages in order (the last one may be short).
const PAGE = 4096;
function sparse(snapshot) {
  if (snapshot.byteLength % 4 || snapshot.byteOffset % 4) throw new Error("a snapshot is whole words");
  const length = snapshot.byteLength;
  const pages = Math.ceil(length / PAGE);
  const words = new Uint32Array(snapshot.buffer, snapshot.byteOffset, length / 4);
  const kept = new Uint8Array(pages);
  let size = 0;
  for (let page = 0; page < pages; page++) {
    for (let word = page * (PAGE / 4), end = Math.min(word + PAGE / 4, words.length); word < end; word++) {
      if (words[word] !== 0) {
        kept[page] = 1;
        size += Math.min(PAGE, length - page * PAGE);
        break;
      }
    }
  }
  const stored = new Uint8Array(4 + pages + size);
  new DataView(stored.buffer).setUint32(0, length, true);
  stored.set(kept, 4);
  for (let page = 0, at = 4 + pages; page < pages; page++) {
    if (!kept[page]) continue;
    const bytes = snapshot.subarray(page * PAGE, (page + 1) * PAGE);
    stored.set(bytes, at);
    at += bytes.length;
  }
  return stored;
}
function whole(buffer) {
  const stored = new Uint8Array(buffer);
  const length = new DataView(buffer).getUint32(0, true);
  const pages = Math.ceil(length / PAGE);
  const snapshot = new Uint8Array(length);
  let at = 4 + pages;
  for (let page = 0; page < pages; ) {
    if (!stored[4 + page]) {
      page++;
      continue;
    }
    let end = page + 1; // a run of kept pages is copied at once
    while (end < pages && stored[4 + end]) end++;
    const size = Math.min(end * PAGE, length) - page * PAGE;
    snapshot.set(stored.subarray(at, at + size), page * PAGE);
    at += size;
    page = end;
  }
  // A kept snapshot that does not add up is not restored, and is dropped (worker-core.js, restoreOrLoad).
  if (at !== stored.length) throw new Error("the kept snapshot is damaged");
  return snapshot;
}

const snapshots = {
  async find() {
    // A first visit answers at once, without waiting for the manifest or creating the cache.
    if (!(await caches.has(SNAPSHOT_CACHE))) return null;
    // The cache keeps one snapshot (save drops the others): it is read at once, not once the manifest (which names
    // the one wanted) has come through the service worker, busy checking Pyodide's files then; only a snapshot
    // under the wanted name is restored.
    const cache = await caches.open(SNAPSHOT_CACHE);
    const [kept] = await cache.keys();
    const read = kept && cache.match(kept).then((response) => response?.arrayBuffer());
    read?.catch(() => {}); // told below, if it is the one wanted
    const wanted = await snapshotUrl();
    if (kept?.url === wanted) return { bytes: read.then(whole) };
    const response = await cache.match(wanted);
    return response ? { bytes: response.arrayBuffer().then(whole) } : null;
  },
  async save(bytes) {
    const cache = await caches.open(SNAPSHOT_CACHE);
    const url = await snapshotUrl();
    await cache.put(url, new Response(sparse(bytes), { headers: { "Content-Type": "application/octet-stream" } }));
    for (const old of await cache.keys()) if (old.url !== url) await cache.delete(old);
  },
  async discard() {
    await caches.delete(SNAPSHOT_CACHE);
  },
};

serveWorker({
  loadPyodide: async (options) => loadPyodide({ ...options, indexURL, createPyodideModule: (await pyodideScript).default }),
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
