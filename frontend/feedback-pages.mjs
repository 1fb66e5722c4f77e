// Draws the cases of learners' feedback pages as HTML, for loopcraft/classroom/pages.py (`CaseDrawer`), with the
// challenge page's own results list (src/feedback.js): the pages then carry no script. Reads a JSON line per page,
// its data ({"challenges": [{slug, cases}]}), from stdin; writes a JSON line per page: each challenge's rows as HTML.
//
// The results list builds elements with document.createElement (src/dom.js); here, with no browser, `document`
// makes elements that only keep what they are given and write themselves as HTML, every text and attribute value
// escaped, so that what a learner's code printed or returned stays text.
import { createInterface } from "node:readline";
import { challengeRows } from "./src/feedback.js";

const TEXT = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escape = (text) => String(text).replace(/[&<>"]/g, (c) => TEXT[c]);
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

class Element {
  constructor(tag) {
    this.tag = tag;
    this.attributes = new Map();
    // As a browser's: dataset.testid is the attribute data-testid.
    this.dataset = new Proxy({}, { set: (_, key, value) => (this.setAttribute(`data-${kebab(key)}`, value), true) });
    this.children = [];
    this.open = false;
  }
  set className(value) {
    this.attributes.set("class", String(value));
  }
  setAttribute(name, value) {
    if (name === "open") this.open = true;
    else this.attributes.set(name, String(value));
  }
  append(...nodes) {
    this.children.push(...nodes.map((node) => (node instanceof Element ? node : escape(node))));
  }
  replaceChildren(...nodes) {
    this.children = [];
    this.append(...nodes);
  }
  set textContent(value) {
    this.replaceChildren(String(value));
  }
  get outerHTML() {
    const written = [...this.attributes].map(([name, value]) => ` ${name}="${escape(value)}"`).join("");
    const inner = this.children.map((child) => (child instanceof Element ? child.outerHTML : child)).join("");
    return `<${this.tag}${written}${this.open ? " open" : ""}>${inner}</${this.tag}>`;
  }
}
globalThis.document = { createElement: (tag) => new Element(tag) };

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const page = JSON.parse(line);
  const drawn = page.challenges.map((challenge) => challengeRows(challenge).map((row) => row.outerHTML).join(""));
  process.stdout.write(`${JSON.stringify(drawn)}\n`);
}
