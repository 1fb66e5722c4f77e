// Page entry of the loop lab: runs grader/lab.py's whole grid (four model habits, three loop designs, twelve
// tasks: 144 runs) as ONE case through the page's Python session, then draws the table, an SVG chart of the
// same figures, and what they show. The learner's own loop (a saved solution or a .py file) runs as a fourth
// column, in the same case, and again on the next visit (its choice is kept). The lab is the course's last
// item: the index counts it done once the learner has done something in it, ran their own loop or pressed
// "Mark complete" (opening it runs the grid, which is no sign of anything).
import { createPageSession } from "./page-session.js";
import { keywordCall } from "./session.js";
import { isComplete, labLoopChoice, markComplete, saveLabLoopChoice, storageKey } from "./storage.js";
import { h } from "./dom.js";
import { setupThemeToggle } from "./theme.js";
import { startPage } from "./navigate.js";

const MAX_UPLOAD_BYTES = 256 * 1024;
const SVG = "http://www.w3.org/2000/svg";
const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);

// The page, set up on the document's page: now, and again each time the navigation brings a lab in
// (navigate.js). Whatever it adds outside its own elements goes when `signal` aborts.
function mount({ signal }) {
  const data = JSON.parse(document.getElementById("lab-data").textContent);
  const ui = {
    status: byTestId("status"), table: byTestId("lab-table"), chart: document.querySelector(".lab-chart-svg"),
    lessons: byTestId("lab-lessons"), select: byTestId("lab-loop"), runYours: byTestId("lab-run-yours"),
    upload: byTestId("lab-upload"), verdict: byTestId("lab-verdict"), done: byTestId("lab-done"),
    markComplete: byTestId("mark-complete"),
  };

  function complete() {
    markComplete(data.track, data.slug);
    showComplete();
  }

  function showComplete() {
    ui.done.hidden = false;
    ui.markComplete.textContent = "Completed";
    ui.markComplete.disabled = true;
  }

  ui.markComplete.addEventListener("click", complete);
  if (isComplete(data.track, data.slug)) showComplete();
  else ui.markComplete.disabled = false;

  setupThemeToggle({ signal });
  const session = createPageSession({
    signal,
    timeLimitMs: data.time_limit_seconds * 1000,
    onState(state, detail = {}) {
      if (state === "error") setStatus("error", `Python failed to load (${detail.message}). Reload the page to try again.`);
      if (state === "restarting") setStatus("restarting", "Restarting Python (the run ran out of time)…");
    },
  });

  function setStatus(state, text) {
    ui.status.dataset.state = state;
    ui.status.textContent = text;
  }

  // --- Running ------------------------------------------------------------------
  let busy = false;

  async function runGrid(loop = null) {
    busy = true;
    ui.runYours.disabled = true;
    try {
      await session.whenReady();
      setStatus("running", "Running the grid…");
      const started = performance.now();
      const [outcome] = await session.run({ source: "", sandbox: data.sandbox,
        cases: [{ name: "grid", run: keywordCall(data.entry, { world: data.world, loop }) }] });
      const ms = Math.round(performance.now() - started);
      if (outcome.kind !== "value") {
        const why = outcome.kind === "timeout" ? `it ran out of time (${data.time_limit_seconds} s): look for a loop that never ends`
          : outcome.error;
        setStatus("ready", `The grid did not finish: ${why}`);
        return null;
      }
      const grid = JSON.parse(outcome.value);
      const runs = grid.cells.length * 12;
      setStatus("ready", `Ran ${runs} runs in ${ms} ms, in your browser.`);
      window.loopcraft = { lab: grid, ms };
      draw(grid);
      if (loop !== null) complete(); // the learner's own loop ran in the grid
      return grid;
    } catch (err) {
      setStatus("error", `The run stopped: ${err.message}`);
      return null;
    } finally {
      busy = false;
      ui.runYours.disabled = false;
    }
  }

  // --- Drawing ------------------------------------------------------------------
  const cellOf = (grid, habit, design) => grid.cells.find((c) => c.habit === habit && c.design === design);

  function draw(grid) {
    const head = ui.table.querySelector("thead tr");
    head.replaceChildren(h("th", { scope: "col" }, "Model habit"),
      ...grid.designs.map((d) => h("th", { scope: "col", "data-design": d.key }, d.label)));
    ui.table.querySelector("tbody").replaceChildren(...grid.habits.map((habit) => h("tr", {},
      h("th", { scope: "row" }, habit.label),
      ...grid.designs.map((design) => {
        const cell = cellOf(grid, habit.key, design.key);
        return h("td", { "data-habit": habit.key, "data-design": design.key, "data-share": cell.share,
          "data-calls": cell.calls, class: cell.share === 100 ? "lab-good" : cell.share === 0 ? "lab-bad" : "" },
        `${cell.share}% `, h("span", { class: "lab-calls" }, `(${cell.calls} calls)`));
      }))));
    drawChart(grid);
    drawLessons(grid);
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
    node.append(...children);
    return node;
  }

  // Grouped bars, one group per habit, its name above them: a bar's length is the share of tasks answered right, on
  // the 0-100% axis; the model calls per task are a figure of their own, beside each bar in a column at the right (on
  // the share's axis, 8.0 calls sat on "100%"). A 0% bar is no bar: its figure says 0%. Drawn at the size it is shown,
  // a unit a CSS pixel, so that its text stays as large as the page's on a phone (scaled down to fit, it was 9 px
  // there); drawn again when that changes.
  const CHART = { barH: 12, barGap: 4, label: 20, groupGap: 10, axis: 20, left: 4, figures: 124, right: 4 };
  let drawn = null; // {grid, width} of the chart on the page

  function drawChart(grid) {
    const { barH, barGap, label, groupGap, axis, left, figures, right } = CHART;
    const width = Math.max(240, Math.floor(ui.chart.clientWidth));
    drawn = { grid, width };
    const plotW = width - left - figures - right;
    const groupH = label + grid.designs.length * (barH + barGap) + groupGap;
    const height = axis + grid.habits.length * groupH;
    const x = (share) => left + (plotW * share) / 100;
    const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "lab-svg", role: "img" });
    for (const tick of [0, 50, 100]) {
      const anchor = { 0: "start", 50: "middle", 100: "end" }[tick];
      root.append(svg("line", { x1: x(tick), x2: x(tick), y1: axis - 4, y2: height - groupGap, class: "lab-grid" }),
        svg("text", { x: x(tick), y: axis - 8, "text-anchor": anchor, class: "lab-axis" }, `${tick}%`));
    }
    root.append(svg("text", { x: width - right, y: axis - 8, "text-anchor": "end", class: "lab-axis" }, "share · calls"));
    grid.habits.forEach((habit, i) => {
      const top = axis + i * groupH;
      root.append(svg("text", { x: left, y: top + label - 6, class: "lab-axis lab-habit" }, habit.label));
      grid.designs.forEach((design, j) => {
        const cell = cellOf(grid, habit.key, design.key);
        const y = top + label + j * (barH + barGap);
        if (cell.share > 0) {
          root.append(svg("rect", { x: left, y, width: x(cell.share) - left, height: barH, class: `lab-bar lab-bar-${j}` }));
        }
        root.append(svg("text", { x: width - right, y: y + barH - 2, "text-anchor": "end", class: "lab-axis lab-figure" },
          `${cell.share}% · ${cell.calls} calls`));
      });
    });
    // The legend is HTML, so that it wraps on a narrow screen.
    const legend = h("ul", { class: "lab-legend" }, ...grid.designs.map((design, j) => h("li", {},
      h("span", { class: `lab-swatch lab-swatch-${j}` }), design.label)));
    ui.chart.replaceChildren(root, legend);
  }

  const resized = new ResizeObserver(() => {
    if (drawn && Math.max(240, Math.floor(ui.chart.clientWidth)) !== drawn.width) drawChart(drawn.grid);
  });
  resized.observe(ui.chart);
  signal.addEventListener("abort", () => resized.disconnect());

  // The three lessons of the results page, each stated from this run's own figures.
  function drawLessons(grid) {
    const c = (habit, design) => cellOf(grid, habit, design);
    const slips = ["breaks-format", "unknown-tool"].map((habit) =>
      `${grid.habits.find((x) => x.key === habit).label}: ${c(habit, "errors-end").share}% → ${c(habit, "fed-back").share}%`
      + ` at ${c(habit, "fed-back").calls} calls a task`);
    const items = [
      `Feeding errors back turns format and tool-name slips from fatal into a short detour (${slips.join("; ")}). `
        + "The error sent back must say what was expected.",
      `A repeat guard rescues a model that reacts to a nudge (repeats until told: ${c("repeats-until-told", "fed-back").share}% → `
        + `${c("repeats-until-told", "guarded").share}%) and caps what a stubborn one costs (${c("stubborn", "fed-back").calls} → `
        + `${c("stubborn", "guarded").calls} calls a task), but the stubborn model still answers ${c("stubborn", "guarded").share}%: `
        + "that is a prompt, model or tool-description problem.",
      `Guards live in your code: without one, the stubborn model spends all ${c("stubborn", "fed-back").calls} calls of every task. `
        + "Never rely on the model to stop itself.",
    ];
    ui.lessons.replaceChildren(...items.map((text) => h("li", {}, text)));
    if (grid.designs.some((d) => d.key === "yours")) compareYours(grid);
  }

  function compareYours(grid) {
    const lines = grid.habits.map((habit) => {
      const ref = cellOf(grid, habit.key, "guarded");
      const own = cellOf(grid, habit.key, "yours");
      const how = own.share > ref.share ? "beats" : own.share < ref.share ? "trails"
        : Number(own.calls) < Number(ref.calls) ? "matches on answers and is cheaper than"
          : Number(own.calls) > Number(ref.calls) ? "matches on answers but costs more than" : "equals";
      return `${habit.label}: ${own.share}% (${own.calls} calls): yours ${how} the guarded design's ${ref.share}% (${ref.calls}).`;
    });
    ui.verdict.replaceChildren(
      ...(grid.loop_error ? [h("p", { class: "lab-error" }, `Your loop failed on some runs: ${grid.loop_error}`)] : []),
      h("ul", {}, ...lines.map((line) => h("li", {}, line))));
  }

  // --- The learner's loop --------------------------------------------------------
  // Every challenge of data.loops (each one the lab can run) with code of the learner's own, in course order.
  function savedLoops() {
    return data.loops.map((loop) => {
      let code = null;
      try {
        code = localStorage.getItem(storageKey(data.track, loop.slug));
      } catch {
        // Storage unavailable: nothing saved to offer.
      }
      return { ...loop, code };
    }).filter((loop) => loop.code);
  }

  const saved = savedLoops();
  const FILE = "file"; // the select's value for a loaded file's loop
  let loaded = null; // {name, code} of the .py file loaded, this visit or a previous one
  if (saved.length) {
    ui.select.replaceChildren(...saved.map((loop) => h("option", { value: loop.slug }, loop.title)));
  }

  // The loaded file as the select's last option, chosen.
  function offerFile(file) {
    loaded = file;
    ui.select.querySelector(`option[value="${FILE}"]`)?.remove();
    if (!saved.length) ui.select.replaceChildren();
    ui.select.append(h("option", { value: FILE }, `${file.name} (loaded file)`));
    ui.select.value = FILE;
  }

  // The loop of the current choice, or null (with what to say) when there is none.
  function chosenLoop() {
    if (ui.select.value === FILE && loaded) return { code: loaded.code, remember: { file: loaded.name, code: loaded.code } };
    const loop = saved.find((l) => l.slug === ui.select.value);
    return loop ? { code: loop.code, remember: { slug: loop.slug } } : null;
  }

  ui.runYours.addEventListener("click", () => {
    const loop = chosenLoop();
    if (!loop) {
      ui.verdict.textContent = "No saved solution yet: write one in a challenge of this track, or load a .py file.";
      return;
    }
    if (busy) return;
    saveLabLoopChoice(data.track, data.slug, loop.remember);
    runGrid(loop.code);
  });

  ui.upload.addEventListener("change", async () => {
    const file = ui.upload.files[0];
    ui.upload.value = "";
    if (!file || busy) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      ui.verdict.textContent = `${file.name} is too large to be a loop (over ${MAX_UPLOAD_BYTES / 1024} KB).`;
      return;
    }
    const code = await file.text();
    offerFile({ name: file.name, code });
    saveLabLoopChoice(data.track, data.slug, { file: file.name, code });
    ui.verdict.textContent = `Running ${file.name}…`;
    runGrid(code);
  });

  // The column chosen on a previous visit comes back with the grid: the saved solution as it is now, or the file's
  // code as it was loaded. A saved solution no longer there (its code reset to the starter) leaves the grid alone.
  const kept = labLoopChoice(data.track, data.slug);
  if (kept?.slug && saved.some((l) => l.slug === kept.slug)) {
    ui.select.value = kept.slug;
  } else if (typeof kept?.file === "string" && typeof kept.code === "string") {
    offerFile({ name: kept.file, code: kept.code });
  }
  const first = kept ? chosenLoop() : null;
  if (kept && !first) ui.verdict.textContent = "The loop you ran here last time is no longer saved: choose another.";
  runGrid(first?.code ?? null);

  return () => session.leave();
}

startPage(mount);
