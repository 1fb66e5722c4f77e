// The floor's page script, in a file of its own: the site's Content-Security-Policy runs no inline script.
// `?snapshot=FILE` makes it the restore floor: its worker restores the site's shipped snapshot (py/FILE) instead.
const snapshot = new URLSearchParams(location.search).get("snapshot");
const script = snapshot ? `restore-worker.js?snapshot=${encodeURIComponent(snapshot)}` : "worker.js";
const worker = new Worker(script, { type: "module" });
worker.onmessage = ({ data }) => {
  window.floor = { readyMs: performance.now(), result: data.result };
  document.getElementById("state").textContent = `ready: 1+1 = ${data.result}`;
};
