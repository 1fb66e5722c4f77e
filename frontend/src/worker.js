// The browser's module worker: Pyodide and the grader, served from this site (never a CDN).
import { loadPyodide, version } from "../pyodide/pyodide.mjs";
import { compileAhead, serveWorker } from "./worker-core.js";

const pyBase = new URL("../py/", import.meta.url);
const indexURL = new URL("../pyodide/", import.meta.url).href;
// Asked for at once too, rather than one after the other once Pyodide starts loading: its interpreter's script and
// its WebAssembly, compiled while the snapshot is read (a second visit) or Python's other files arrive (a first).
// Pyodide's own request for the module is given this response: it is fetched once.
const pyodideScript = import("../pyodide/pyodide.asm.mjs");
pyodideScript.catch(() => {}); // a failure is told when Python starts (loadPyodide)
const wasmUrl = new URL("pyodide.asm.wasm", indexURL).href;
const fetchOnce = self.fetch;
let wasmResponse = fetchOnce(wasmUrl);
compileAhead(wasmUrl, wasmResponse);
self.fetch = (resource, ...rest) => {
  if (wasmResponse === null || String(resource) !== wasmUrl) return fetchOnce(resource, ...rest);
  const response = wasmResponse;
  wasmResponse = null;
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
// exact Pyodide and grader they were made from: a snapshot from any other build cannot be restored.
const SNAPSHOT_CACHE = "loopcraft-snapshot";
const snapshotUrl = async () => new URL(`../__snapshot/${version}-${(await manifest).hash}`, pyBase).href;

const snapshots = {
  async find() {
    // A first visit answers at once, without waiting for the manifest or creating the cache.
    if (!(await caches.has(SNAPSHOT_CACHE))) return null;
    const response = await caches.match(await snapshotUrl(), { cacheName: SNAPSHOT_CACHE });
    return response ? { bytes: response.arrayBuffer() } : null;
  },
  async save(bytes) {
    const cache = await caches.open(SNAPSHOT_CACHE);
    const url = await snapshotUrl();
    await cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
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
});
