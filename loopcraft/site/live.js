// Added by Loopcraft's dev server (`python build.py serve`) to the pages it serves, never to the built site:
// reloads the page after a good rebuild, and shows a failed build's `path:line: message` lines over it.
(() => {
  const loaded = document.currentScript.dataset.build;
  const events = new EventSource("/__loopcraft/events");
  events.onmessage = (event) => {
    const { build, errors } = JSON.parse(event.data);
    if (errors.length) {
      show(errors);
    } else if (String(build) !== loaded) {
      location.reload();
    }
  };

  function show(errors) {
    let overlay = document.getElementById("loopcraft-build-errors");
    if (!overlay) {
      overlay = document.createElement("pre");
      overlay.id = "loopcraft-build-errors";
      overlay.setAttribute("role", "alert");
      overlay.style.cssText =
        "position:fixed;inset:0;z-index:2147483647;margin:0;padding:2rem;overflow:auto;white-space:pre-wrap;" +
        "background:rgba(24,24,27,.95);color:#fecaca;font:14px/1.6 ui-monospace,Menlo,Consolas,monospace";
      document.body.append(overlay);
    }
    overlay.textContent =
      "The build failed; this page is from the last good build. Fix these and save: the page reloads.\n\n" +
      errors.join("\n");
  }
})();
