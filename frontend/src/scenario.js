// "Try your own scenario": the learner's own arguments for the challenge's function, written as in a Python call
// (`task="1+2?", script=['...']`, read by pyliteral.js), run on their code in the page's Python session. Never judged, never counted, never unlocks anything: the page
// only shows what came back (the value, the printed output and the trace). The text is kept per challenge.
import { h } from "./dom.js";
import { loadScenario, saveScenario } from "./storage.js";
import { renderScenarioResult } from "./results.js";
import { isModEnter } from "./keys.js";
import { asCall, bindArguments, parseArguments } from "./pyliteral.js";

/**
 * section: the page's scenario section; data: the page data; run(args): runs the learner's code on
 * `args` and resolves to its outcome (app.js, through the session); it rejects when the run cannot happen.
 */
export function setupScenario(section, data, run) {
  const cases = keywordCases(data.cases);
  if (!cases.length) {
    // Cases that run a `call` (a class, a program) or pass their arguments by position: no keyword arguments to
    // start from, so no scenario.
    section.hidden = true;
    return { setEnabled() {} };
  }
  const visible = cases.filter((c) => !c.hidden);
  // Arguments every case passes are required; any a case passes is allowed.
  const allowed = new Set(cases.flatMap((c) => Object.keys(c.args)));
  const required = [...allowed].filter((name) => cases.every((c) => name in c.args));
  const saved = loadScenario(data.track, data.slug);

  const input = h("textarea", { id: "scenario-args", class: "scenario-args", "data-testid": "scenario-args",
    rows: 8, spellcheck: "false", autocapitalize: "off", autocomplete: "off", "aria-describedby": "scenario-about" });
  input.value = saved === null ? (visible[0] ? asCall(visible[0].args) : "") : fromJson(saved);
  const message = h("p", { class: "scenario-message", "data-testid": "scenario-message", role: "alert" });
  const result = h("div", { class: "scenario-result", "data-testid": "scenario-result" });
  const button = h("button", { type: "button", class: "button", "data-testid": "scenario-run" }, "Run my scenario");

  section.append(
    h("p", { class: "hint", id: "scenario-about" },
      `Call ${data.entry} with arguments of your own and see what your code does with them. `,
      "It is never graded or counted."),
    visible.length ? h("div", { class: "scenario-examples", role: "group", "aria-label": "Start from an example" },
      h("span", { class: "scenario-examples-label", "aria-hidden": "true" }, "Start from:"),
      visible.map((c) => {
        const use = h("button", { type: "button", class: "button button-small", "data-testid": "scenario-example" }, c.name);
        use.setAttribute("aria-label", `Start from the example ${c.name}`);
        use.addEventListener("click", () => {
          input.value = asCall(c.args);
          saveScenario(data.track, data.slug, input.value);
          input.focus();
        });
        return use;
      })) : null,
    h("label", { for: "scenario-args", class: "scenario-label" },
      `Arguments of ${data.entry}, as in a Python call: name=value, …`, allowed.size ? ` (${[...allowed].join(", ")})` : ""),
    input,
    h("div", { class: "scenario-actions" }, button),
    message,
    result);

  input.addEventListener("input", () => saveScenario(data.track, data.slug, input.value));

  async function start() {
    const args = parse(input.value, data, allowed, required);
    message.textContent = args.error ?? "";
    if (args.error) {
      result.replaceChildren(); // it was the result of other arguments than those now in the box
      return;
    }
    button.disabled = true;
    result.replaceChildren(h("p", { class: "hint" }, "Running your scenario…"));
    try {
      result.replaceChildren(...renderScenarioResult(await run(args.value), data.time_limit_seconds));
    } catch (err) {
      result.replaceChildren(h("p", { class: "case-message" }, `Not run: ${err.message}`));
    } finally {
      button.disabled = false;
    }
  }
  button.addEventListener("click", start);
  // Ctrl/Cmd+Enter in the box runs the scenario, as its button does (Enter alone is a new line); the
  // page's Ctrl/Cmd+Enter, which runs the cases, leaves text fields alone (keys.js).
  input.addEventListener("keydown", (event) => {
    if (!isModEnter(event)) return;
    event.preventDefault();
    if (!button.disabled) start();
  });

  return {
    /** The scenario's button follows Run's: one run at a time, and none without Python. */
    setEnabled(enabled) {
      button.disabled = !enabled;
    },
  };
}

// A scenario kept by an earlier page, which took the arguments as a JSON object, is shown as a call.
function fromJson(saved) {
  try {
    const value = JSON.parse(saved);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return asCall(value);
  } catch {
    // Not JSON: the learner's own text, as they left it.
  }
  return saved;
}

/** The cases that call the entry with keyword arguments, each with them as `args` (its run spec's, a JSON object). */
function keywordCases(cases) {
  return cases.flatMap((c) => {
    const args = c.run.call === null ? JSON.parse(c.run.args) : null;
    return args !== null && typeof args === "object" && !Array.isArray(args) ? [{ ...c, args }] : [];
  });
}

/** {value} for arguments that can be passed, {error} saying what is wrong otherwise. */
function parse(text, { entry, parameters = [] }, allowed, required) {
  let value;
  try {
    value = bindArguments(parseArguments(text), parameters);
  } catch (err) {
    return { error: `The arguments cannot be read. ${err.message}` };
  }
  const unknown = Object.keys(value).filter((name) => !allowed.has(name));
  if (unknown.length && allowed.size) {
    return { error: `${entry} has no argument named ${unknown.join(", ")}. Its arguments: ${[...allowed].join(", ")}.` };
  }
  const missing = required.filter((name) => !(name in value));
  if (missing.length) return { error: `Missing argument${missing.length === 1 ? "" : "s"}: ${missing.join(", ")}.` };
  return { value };
}
