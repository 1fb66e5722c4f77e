// The class report's charts (loopcraft/classroom/report.py writes the page): drawn with Observable Plot as SVG
// in the page's own colours (currentColor and the stylesheet's custom properties), so they follow light and dark
// without being drawn again. Each chart has a table beside it holding the same numbers: the chart is a picture
// of the table (role="img" with a label), the table is what a screen reader reads.
import { barX, barY, plot, ruleX, ruleY } from "@observablehq/plot";
import { setupThemeToggle } from "./theme.js";

const data = JSON.parse(document.getElementById("report-data").textContent);

function draw(figure, chart) {
  const width = Math.max(280, Math.min(figure.clientWidth || 640, 640));
  const svg = chart(width);
  // The figure is the image (role="img", labelled); Plot's labels on the groups inside it would be ARIA on
  // elements without a role. The bars keep a class of their own, for their colour.
  for (const bars of svg.querySelectorAll('[aria-label="bar"]')) bars.classList.add("chart-bars");
  for (const node of [svg, ...svg.querySelectorAll("[aria-label], [aria-description]")]) {
    node.removeAttribute("aria-label");
    node.removeAttribute("aria-description");
  }
  figure.replaceChildren(svg);
}

// Whole numbers only, about five of them: a count of learners has no halves ("3, 3, 2, 2" was a class of three).
function wholeTicks(bars) {
  const most = Math.max(1, ...bars.map((bar) => bar.learners));
  const step = Math.ceil(most / 5);
  return Array.from({ length: Math.floor(most / step) + 1 }, (_, i) => i * step);
}

// Learners by challenges passed; of a one-challenge course, by cases passed of it (report.py's distribution).
function distribution(width) {
  const { bars, unit } = data.distribution;
  // A label every few bars where they would run into each other (a case count on a phone): 24 px or more apart.
  const every = Math.ceil((24 * bars.length) / (width - 68));
  const ticks = bars.map((bar) => bar.passed).filter((passed) => passed % every === 0);
  return plot({
    width,
    height: 220,
    marginLeft: 48,
    x: { label: `${unit} passed`, tickFormat: "d", type: "band", ticks },
    y: { label: "learners", grid: true, tickFormat: "d", ticks: wholeTicks(bars) },
    marks: [barY(bars, { x: "passed", y: "learners", fill: "currentColor" }), ruleY([0])],
  });
}

function facility(cases) {
  return (width) => {
    const marginLeft = Math.min(260, width / 2);
    // Case names are cut to what fits the margin (about 6 px a character at the axis' size); the table has them whole.
    const fits = Math.floor((marginLeft - 12) / 6);
    return plot({
      width,
      height: 28 * cases.length + 50,
      marginLeft,
      x: { label: "share passing (%)", domain: [0, 100], grid: true },
      y: { label: null, domain: cases.map((c) => c.label), tickFormat: (label) => truncate(label, fits) },
      marks: [barX(cases, { x: "facility", y: "label", fill: "currentColor" }), ruleX([0])],
    });
  };
}

function truncate(text, length) {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

const charts = [];
for (const figure of document.querySelectorAll("[data-chart]")) {
  const name = figure.dataset.chart;
  const chart = name === "distribution" ? distribution : facility(data.facility[name] ?? []);
  charts.push([figure, chart]);
  draw(figure, chart);
}
let width = innerWidth;
addEventListener("resize", () => {
  if (innerWidth === width) return;
  width = innerWidth;
  for (const [figure, chart] of charts) draw(figure, chart);
});
setupThemeToggle();
