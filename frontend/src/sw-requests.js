// What the page's worker and the service worker (sw.js) agree on about Pyodide's WebAssembly.
//
// The service worker leaves the module to the network and the browser's HTTP cache (it does not answer for it):
// Chromium keeps a module's compiled code (its code cache) only for a copy from there, never for one from Cache
// Storage nor for one a service worker answers with, so a returning learner's module is not compiled again
// (docs/performance.md, 2026-12-02 01:37). Where the network fails (offline), the worker asks again with this header,
// and the service worker answers with its own copy, checked as every file it serves.
export const MODULE_PATH = "pyodide/pyodide.asm.wasm";
export const CACHED_COPY = "X-Loopcraft-Cached-Copy";
