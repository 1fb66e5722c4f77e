// The floor's page script, in a file of its own: the site's Content-Security-Policy runs no inline script.
const worker = new Worker("worker.js", { type: "module" });
worker.onmessage = ({ data }) => {
  window.floor = { readyMs: performance.now(), result: data.result };
  document.getElementById("state").textContent = `ready: 1+1 = ${data.result}`;
};
