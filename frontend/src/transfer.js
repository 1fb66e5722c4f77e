// Work that travels: every `loopcraft:` entry of this browser's storage (code, scenarios, solved marks,
// hints revealed, and whatever later pages add) exported as one versioned JSON file, and imported in
// another browser. When both hold a different version of a challenge's entries, the learner chooses per
// challenge; the code not chosen is kept as another version (storage.js's copies), so nothing is lost.
// docs/architecture.md documents the file's format.
import { h } from "./dom.js";
import { entries, mergeUnlockKeys, removeKey, saveCopy, writeKey } from "./storage.js";
import { firstError } from "./schema.js";
// The file's rules, shared with the instructors' grader (loopcraft/classroom/intake.py reads the same schema).
import SCHEMA from "../../schemas/progress.schema.json" with { type: "json" };

export const FORMAT = SCHEMA.properties.format.const;
export const VERSION = SCHEMA.properties.version.const;
const PREFIX = "loopcraft:";
// Per-challenge entries: loopcraft:<kind>:<track>/<slug>.
const PER_CHALLENGE = /^loopcraft:([a-z-]+):([^:/]+\/[^:/]+)$/;

/** The export file's text. */
export function exportProgress(now = new Date()) {
  return JSON.stringify({ format: FORMAT, version: VERSION, exported: now.toISOString(), entries: entries() }, null, 2);
}

/** The entries of an export file's text, by schemas/progress.schema.json; throws an Error saying what is wrong. */
export function readProgressFile(text) {
  if (new TextEncoder().encode(text).length > SCHEMA.maxBytes) {
    throw new Error("This file is too large to be a Loopcraft progress file.");
  }
  let file;
  try {
    file = JSON.parse(text);
  } catch (err) {
    throw new Error(`This file is not a Loopcraft progress file: it is not JSON (${err.message}).`);
  }
  const error = firstError(SCHEMA, file);
  if (!error) return file.entries;
  const [where] = error.path;
  if (file === null || typeof file !== "object" || Array.isArray(file) || where === "format" || !("format" in file)) {
    throw new Error(`This file is not a Loopcraft progress file (its "format" should be "${FORMAT}").`);
  }
  if (where === "version" || !("version" in file)) {
    throw new Error(`This progress file has version ${JSON.stringify(file.version)}; this site reads version ${VERSION}. `
      + "A newer Loopcraft made it: import it there.");
  }
  throw new Error(`This progress file is damaged: "entries" must map "${PREFIX}…" keys to texts.`);
}

/**
 * What importing `incoming` into `local` does, without doing it:
 * {writes: {key: value} applied whatever the choices, conflicts: [{id, local: {kind: value}, incoming: {kind: value}}]}.
 * Progress is merged, never chosen (MERGED): solved and complete marks keep the earlier date, the solution's
 * unlock keys both sides', hints the larger count, a lesson's right answers both sides' (this browser's where both
 * answered). It is written whatever the
 * learner chooses for the challenge's code, so a challenge solved in either browser stays solved: a solved mark
 * records a run that passed, not the code now in the editor (a solved challenge whose code is edited stays
 * solved too). A challenge whose other entries differ is a conflict; entries of no challenge (preferences such
 * as the theme) keep this browser's value when it has one.
 */
export function planImport(incoming, local) {
  const writes = {};
  const groups = new Set();
  for (const [key, value] of Object.entries(incoming)) {
    const mine = local[key];
    if (mine === value) continue;
    if (mine === undefined) {
      writes[key] = value;
      continue;
    }
    const [, kind, id] = key.match(PER_CHALLENGE) ?? [];
    if (Object.hasOwn(MERGED, kind)) {
      const merged = MERGED[kind](mine, value);
      if (merged !== mine) writes[key] = merged;
    // The site version the code was written against follows the code; alone it is no reason to ask.
    } else if (id && kind !== "base") groups.add(id);
  }
  const conflicts = [...groups].sort().map((id) => ({ id, local: group(local, id), incoming: group(incoming, id) }));
  // A conflict's entries that only the file has wait for the learner's choice too; its progress does not
  // (dropping it here lost the file's solved mark of a challenge whose code differed: issue 39).
  for (const { id } of conflicts) {
    for (const key of Object.keys(writes)) {
      const [, kind, of] = key.match(PER_CHALLENGE) ?? [];
      if (of === id && !Object.hasOwn(MERGED, kind)) delete writes[key];
    }
  }
  return { writes, conflicts };
}

// Per-challenge progress, merged from both sides (this browser's value, the file's) whatever the choice.
const earlier = (mine, theirs) => (theirs < mine ? theirs : mine);
const MERGED = {
  solved: earlier,
  // Both sides' keys to the reference solution (storage.js), this browser's first: each opens it on one build.
  unlock: (mine, theirs) => mergeUnlockKeys(theirs, mine),
  complete: earlier,
  hints: (mine, theirs) => String(Math.max(Number(theirs) || 0, Number(mine) || 0)),
  answers: (mine, theirs) => {
    const read = (text) => {
      try {
        const value = JSON.parse(text);
        return value && typeof value === "object" && !Array.isArray(value) ? value : {};
      } catch {
        return {};
      }
    };
    const ours = read(mine);
    const both = { ...read(theirs), ...ours };
    return Object.keys(both).length === Object.keys(ours).length ? mine : JSON.stringify(both);
  },
};

// {kind: value} of challenge `id`'s entries that are chosen (progress, MERGED, is not).
function group(store, id) {
  const found = {};
  for (const [key, value] of Object.entries(store)) {
    const [, kind, of] = key.match(PER_CHALLENGE) ?? [];
    if (of === id && !Object.hasOwn(MERGED, kind)) found[kind] = value;
  }
  return found;
}

/**
 * Applies a plan; choices: {id: "local" | "incoming"} for each conflict. The code not chosen is kept as
 * another version of the challenge's code. Returns {written, copies, failed} counts.
 */
export function applyImport({ writes, conflicts }, choices, now = new Date()) {
  const result = { written: 0, copies: 0, failed: 0 };
  const put = (key, value) => (writeKey(key, value) ? (result.written += 1) : (result.failed += 1));
  for (const [key, value] of Object.entries(writes)) put(key, value);
  for (const { id, local, incoming } of conflicts) {
    const [kept, other] = choices[id] === "incoming" ? [incoming, local] : [local, incoming];
    if (choices[id] === "incoming") {
      // The file's version whole: an entry it lacks (code back at the starter, say) is removed here too.
      for (const kind of new Set([...Object.keys(local), ...Object.keys(incoming)])) {
        const key = `${PREFIX}${kind}:${id}`;
        if (kind in incoming) put(key, incoming[kind]);
        else removeKey(key);
      }
    }
    const from = choices[id] === "incoming" ? "browser" : "file";
    if (other.code !== undefined && other.code !== kept.code && saveCopy(id, other.code, from, now)) result.copies += 1;
  }
  return result;
}

// ---- The index page's controls -------------------------------------------------------------------------

/**
 * section: the index's "your work" section; titles: {"track/slug": title}; onImported(): called after an
 * import wrote something, to redraw the progress.
 */
export function setupTransfer(section, titles, onImported) {
  const button = section.querySelector('[data-testid="export"]');
  const picker = section.querySelector('[data-testid="import"]');
  const review = section.querySelector('[data-testid="import-review"]');
  const message = section.querySelector('[data-testid="transfer-message"]');
  const say = (text) => (message.textContent = text);

  button.addEventListener("click", () => {
    const text = exportProgress();
    const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
      download: `loopcraft-progress-${new Date().toISOString().slice(0, 10)}.json` });
    link.click();
    // Not at once: the browser may still be reading it for the download.
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    say(`Exported ${Object.keys(JSON.parse(text).entries).length} saved items to ${link.download}.`);
  });

  picker.addEventListener("change", async () => {
    const file = picker.files[0];
    picker.value = ""; // choosing the same file again still imports it
    if (!file) return;
    let plan;
    try {
      plan = planImport(readProgressFile(await file.text()), entries());
    } catch (err) {
      review.hidden = true;
      return say(err.message);
    }
    if (!plan.conflicts.length) return finish(plan, {});
    say("");
    showReview(plan);
  });
  button.disabled = picker.disabled = false; // the page leaves them disabled until now (templates/index.html)

  function finish(plan, choices) {
    const done = applyImport(plan, choices);
    review.hidden = true;
    review.replaceChildren();
    const parts = [`Imported ${done.written} saved item${done.written === 1 ? "" : "s"}`];
    if (done.copies) parts.push(`kept the code you did not choose (${done.copies} version${done.copies === 1 ? "" : "s"}) as other versions on ${done.copies === 1 ? "its challenge's" : "their challenges'"} page`);
    if (done.failed) parts.push(`${done.failed} could not be saved (this browser's storage is full or disabled)`);
    say(`${parts.join("; ")}.`);
    onImported();
  }

  function showReview(plan) {
    const describe = (side, id) => (side.code !== undefined ? `${side.code.split("\n").length} lines of code`
      : side["lab-loop"] !== undefined ? `the lab's loop: ${labLoopName(side["lab-loop"], id)}` : "the starter code");
    // The loop lab's kept column (storage.js's labLoopChoice): a challenge's saved code or a loaded file.
    const labLoopName = (text, id) => {
      try {
        const { slug, file } = JSON.parse(text);
        return slug ? titles[`${id.split("/")[0]}/${slug}`] ?? slug : String(file);
      } catch {
        return "unreadable";
      }
    };
    const fields = plan.conflicts.map(({ id, local, incoming }, i) => h("fieldset", { class: "import-choice", "data-testid": "import-choice", "data-id": id },
      h("legend", {}, titles[id] ?? id),
      h("p", { class: "hint" }, "This browser and the file hold different work for this challenge. Keep which? "
        + "The code you do not keep stays available on the challenge's page, under “Other versions of your code”."),
      ["local", "incoming"].map((side) => h("label", { class: "import-option" },
        h("input", { type: "radio", name: `choice-${i}`, value: side, "data-testid": `choose-${side}` }),
        side === "local" ? `Keep this browser's (${describe(local, id)})` : `Use the file's (${describe(incoming, id)})`))));
    const apply = h("button", { type: "button", class: "button button-primary", "data-testid": "import-apply" }, "Import");
    const cancel = h("button", { type: "button", class: "button", "data-testid": "import-cancel" }, "Cancel");
    review.replaceChildren(h("p", {}, `${plan.conflicts.length} challenge${plan.conflicts.length === 1 ? " differs" : "s differ"}: choose for each, then import.`),
      ...fields, h("div", { class: "transfer-actions" }, apply, cancel));
    review.hidden = false;
    fields[0].querySelector("input").focus();
    apply.addEventListener("click", () => {
      const choices = {};
      plan.conflicts.forEach(({ id }, i) => (choices[id] = review.querySelector(`input[name="choice-${i}"]:checked`)?.value));
      const open = plan.conflicts.find(({ id }) => !choices[id]);
      if (open) return say(`Choose which version of ${titles[open.id] ?? open.id} to keep.`);
      finish(plan, choices);
    });
    cancel.addEventListener("click", () => {
      review.hidden = true;
      review.replaceChildren();
      say("Nothing was imported.");
      picker.focus();
    });
  }
}
