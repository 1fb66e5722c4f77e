// The trace of one case: what the learner's loop did, step by step, as the
// sandbox recorded it during the grading run (grader/trace.py lists the event
// kinds). Every value in it comes from the learner's run, so all of it is
// inserted as text (see dom.js).
import { h } from "./dom.js";
import { prettyLines, repr } from "./pretty.js";

/** A closed disclosure with the trace's steps, or null when nothing was recorded (a timeout). */
export function renderTrace(events) {
  if (!events || !events.length) return null;
  let modelCalls = 0;
  let lastReply = null; // {text, step} of the latest model call, to spot it when the loop sends it back
  const steps = events.map((event, i) => {
    const number = i + 1;
    if (event.kind === "model") modelCalls += 1;
    const content = describe(event, modelCalls, lastReply);
    if (event.kind === "model") lastReply = { text: event.reply, step: number };
    return h("li", { class: `trace-step${content.tone ? ` trace-${content.tone}` : ""}`, "data-testid": "trace-step",
      "data-kind": event.kind },
      h("span", { class: "trace-number", "aria-hidden": "true" }, String(number)),
      h("div", { class: "trace-body" },
        h("p", { class: "trace-title" }, h("span", { class: "visually-hidden" }, `Step ${number}: `), content.title),
        content.rows.length ? h("dl", { class: "trace-rows" }, content.rows.map(row)) : null));
  });
  return h("details", { class: "trace", "data-testid": "trace" },
    h("summary", {}, `Trace (${events.length} step${events.length === 1 ? "" : "s"})`),
    modelCalls ? h("p", { class: "trace-legend" },
      "Each model call lists the messages your loop added since the previous call, then the model's reply.") : null,
    h("ol", { class: "trace-steps" }, steps));
}

// {title, rows: [{label, text, muted?, tone?}], tone?} for one event.
function describe(event, modelCall, lastReply) {
  switch (event.kind) {
    case "model": {
      // A loop may add anything to its transcript (None, a number): what is not a message is shown as it is.
      const rows = (Array.isArray(event.messages) ? event.messages : []).map((m) =>
        m === null || typeof m !== "object" ? { label: "", text: repr(m) }
        : m.role === "assistant" && lastReply && m.content === lastReply.text
          ? { label: "assistant", text: `(the reply of step ${lastReply.step})`, muted: true }
          : { label: text(m.role), text: text(m.content) });
      if (!rows.length) rows.push({ label: "", text: "(no new messages)", muted: true });
      rows.push({ label: "reply", text: text(event.reply), tone: "reply" });
      return { title: `Model call ${modelCall}`, tone: "model", rows };
    }
    case "parse": {
      const call = event.call ?? null;
      if (call === null) return { title: "Parsed: a final answer (no tool call)", rows: [] };
      // Sandboxes name the arguments `arguments` or `args`.
      const args = call.arguments ?? call.args;
      if (typeof call.tool === "string" && args && typeof args === "object") {
        return { title: `Parsed: a call to ${call.tool}`, rows: [{ label: "arguments", text: repr(args) }] };
      }
      return { title: "Parsed", rows: [{ label: "result", text: repr(call) }] };
    }
    case "parse_error":
      return { title: "Parse error", tone: "error", rows: [{ label: "error", text: text(event.error) }] };
    case "tool": {
      const failed = typeof event.result === "string" && event.result.startsWith("error:");
      return {
        title: `Tool call: ${text(event.tool)}${failed ? " (failed)" : ""}`,
        tone: failed ? "error" : null,
        rows: [{ label: "arguments", text: repr(event.arguments ?? null) }, { label: "result", text: text(event.result) }],
      };
    }
    case "note":
      return { title: "Note", tone: "note", rows: [{ label: "", text: text(event.text) }] };
    case "return":
      return { title: "Returned", tone: "end", rows: [{ label: "", text: prettyLines(event.value ?? null).map((l) => l.text).join("\n") }] };
    case "raise":
      return { title: "Raised an exception", tone: "error", rows: [{ label: "", text: text(event.error) }] };
    default: {
      // A sandbox may record kinds this page does not know yet: show their fields as they are.
      const { kind, ...fields } = event;
      return { title: text(kind), rows: Object.entries(fields).map(([label, value]) => ({ label, text: repr(value) })) };
    }
  }
}

// Texts are shown as written (not as Python literals) so that newlines read as
// newlines; anything else, as Python would print it.
function text(value) {
  return typeof value === "string" ? value : repr(value ?? null);
}

function row({ label, text, muted, tone }) {
  const empty = text === "";
  return h("div", { class: `trace-row${tone ? ` trace-row-${tone}` : ""}` },
    h("dt", {}, label),
    h("dd", {}, h("pre", { class: muted || empty ? "muted" : null }, empty ? "(empty)" : text)));
}
