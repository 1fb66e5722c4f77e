// Moving between the course's pages without leaving the document, so that the Python already running (the page
// session's worker, see page-session.js) serves the next page too: a click on a link to another page of the course
// fetches that page's HTML (through the service worker, so offline too), puts its body in place of this one's and
// starts the page's script on it; history.pushState and popstate make the address, back and forward behave as on
// an ordinary navigation. Every page stays a static file that works alone: a direct visit, a reload, a second tab,
// a page with scripts blocked, a link with a modifier key, and anything this cannot do (a failed fetch, another
// build of the site) are ordinary navigations. Why this and not a worker that outlives its page:
// docs/architecture.md, "The next page".
//
// A page's script calls startPage(mount) once per document (each page script is a bundle of its own, so the
// navigation is kept on `window`, where the next page's bundle finds it): mount({signal}) sets the page up and may
// return an async function that ends what the page is doing (a run in progress); `signal` aborts when the page is
// left, taking its listeners and timers with it.

// Which click is the navigation's: a plain left click on a link to another page of the course, in this tab.
// click: {button, altKey, ctrlKey, metaKey, shiftKey, defaultPrevented, href, target, download}; here: the page's
// address; siteRoot: the course's root as the page's <body data-site-root> has it, relative to `here` ("" on the
// index, "../../" on a challenge). Returns the address to go to, or null (the browser's own way).
export function courseLink(click, here, siteRoot) {
  if (click.defaultPrevented || click.button !== 0) return null;
  if (click.altKey || click.ctrlKey || click.metaKey || click.shiftKey) return null;
  if (click.download !== null || !["", "_self"].includes(click.target ?? "")) return null;
  let to;
  try {
    to = new URL(click.href, here);
  } catch {
    return null;
  }
  const root = new URL(siteRoot || "./", here); // "" alone would be `here` itself
  if (to.origin !== root.origin || !to.pathname.startsWith(root.pathname)) return null;
  if (!(to.pathname.endsWith("/") || to.pathname.endsWith(".html"))) return null; // a file, not a page
  if (samePage(to, new URL(here))) return null; // a fragment of this page: the browser scrolls to it
  return to.href;
}

// Two addresses of one page: `a/` is `a/index.html`, and the fragment is a place in it.
function samePage(a, b) {
  const path = (url) => url.pathname.replace(/\/index\.html$/, "/");
  return a.origin === b.origin && path(a) === path(b) && a.search === b.search;
}

// What a popstate asks for: {to, scroll} when the entry is another page than the one shown (back or forward
// across a swap), or null when it is the same page (a fragment's entry: the browser scrolls to it).
// state: the entry's history.state (ours hold {scroll}); shown: the address of the page shown; now: location's.
export function popTarget(state, shown, now) {
  if (samePage(new URL(now), new URL(shown))) return null;
  return { to: now, scroll: typeof state?.scroll === "number" ? state.scroll : 0 };
}

// The build a page's script belongs to (its ?v=): a page of another build (the site was updated since this one
// was loaded) is loaded as an ordinary navigation, never with this build's scripts.
export const buildOf = (scriptSrc) => new URL(scriptSrc, "http://x/").searchParams.get("v");

// How often, at most, the scroll is written into the history entry (saveScroll).
const SAVE_MS = 250;

const scriptOf = (doc) => doc.querySelector('script[type="module"][src]');

// --- The effects ------------------------------------------------------------------------------------------------

function createNavigation() {
  const mounts = new Map(); // script path: mount, for each page script this document has loaded
  let page = null; // {controller, leave} of the page shown
  let shown = location.href;
  let queue = Promise.resolve(); // one move at a time, in the order asked
  let saving = null; // the timer that writes the scroll into the history entry
  const announcer = Object.assign(document.createElement("p"), { className: "visually-hidden" });
  announcer.setAttribute("role", "status");
  announcer.setAttribute("aria-live", "polite");
  announcer.dataset.testid = "page-announcer";
  document.body.append(announcer);

  function mount(path, run) {
    const controller = new AbortController();
    page = { controller, leave: run({ signal: controller.signal }) };
    mounts.set(path, run);
  }

  // Ordinary navigation, for whatever the swap cannot do. `pushed`: the address is already the new page's.
  const fallBack = (to, pushed) => (pushed ? location.reload() : location.assign(to));

  async function go(to, { scroll = 0, push = true } = {}) {
    let pushed = !push;
    try {
      const response = await fetch(to, { credentials: "same-origin" });
      const type = response.headers.get("Content-Type") ?? "";
      if (!response.ok || !type.startsWith("text/html")) return fallBack(to, pushed);
      const next = new DOMParser().parseFromString(await response.text(), "text/html");
      const script = scriptOf(next);
      const current = scriptOf(document);
      if (!script || !current || buildOf(script.getAttribute("src")) !== buildOf(current.getAttribute("src"))) {
        return fallBack(to, pushed);
      }
      await leave();
      if (push) {
        // Both entries' scroll is put back from their state (saveScroll), not by the browser.
        history.scrollRestoration = "manual";
        history.replaceState({ ...history.state, scroll: scrollY }, "");
        history.pushState({ scroll: 0 }, "", to);
        history.scrollRestoration = "manual";
        pushed = true;
      }
      shown = location.href;
      swap(next);
      const src = new URL(script.getAttribute("src"), location.href);
      const known = mounts.get(src.pathname);
      if (known) mount(src.pathname, known);
      else await import(src.href); // its startPage mounts it
      arrive(scroll);
    } catch (error) {
      console.warn(`Opening ${to} in place failed (${error.message}); loading it instead`);
      fallBack(to, pushed);
    }
  }

  // The page shown is left: its listeners and timers go, and what it is doing ends (a run is stopped).
  async function leave() {
    if (!page) return;
    const { controller, leave: ending } = page;
    page = null;
    controller.abort();
    await ending?.();
  }

  function swap(next) {
    document.title = next.title;
    for (const { name } of [...document.body.attributes]) document.body.removeAttribute(name);
    for (const { name, value } of next.body.attributes) document.body.setAttribute(name, value);
    for (const child of [...document.body.childNodes]) if (child !== announcer) child.remove();
    announcer.before(...[...next.body.childNodes].map((node) => document.adoptNode(node)));
    delete window.loopcraft; // the last page's results document (app.js, lab.js)
  }

  // As after an ordinary navigation: at the top (at the fragment, or where it was when going back), the focus on
  // the page's main heading, and its title said.
  function arrive(scroll) {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
    else scrollTo({ top: scroll, behavior: "instant" });
    const heading = document.querySelector("main h1");
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
    announcer.textContent = "";
    // A change the screen reader hears: the region is emptied first, then filled once the page is drawn.
    requestAnimationFrame(() => (announcer.textContent = document.title));
  }

  // The scroll is written into the page's own history entry as it changes (at most every SAVE_MS): by the time a
  // popstate says the learner went back, the entry left is no longer the one history.replaceState writes.
  function saveScroll() {
    saving ??= setTimeout(() => {
      saving = null;
      if (samePage(new URL(location.href), new URL(shown))) history.replaceState({ ...history.state, scroll: scrollY }, "");
    }, SAVE_MS);
  }

  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link) return;
    const to = courseLink({
      button: event.button, altKey: event.altKey, ctrlKey: event.ctrlKey, metaKey: event.metaKey,
      shiftKey: event.shiftKey, defaultPrevented: event.defaultPrevented, href: link.href,
      target: link.getAttribute("target"), download: link.getAttribute("download"),
    }, location.href, document.body.dataset.siteRoot ?? "");
    if (to === null) return;
    event.preventDefault();
    queue = queue.then(() => go(to));
  });

  addEventListener("popstate", (event) => {
    clearTimeout(saving);
    saving = null;
    const target = popTarget(event.state, shown, location.href);
    if (target === null) return;
    queue = queue.then(() => go(target.to, { scroll: target.scroll, push: false }));
  });
  addEventListener("scroll", saveScroll, { passive: true });

  return { mount };
}

/** The page script's entry: mounts it on this document's page, now and whenever the navigation brings it back. */
export function startPage(run) {
  window.loopcraftNavigation ??= createNavigation();
  window.loopcraftNavigation.mount(new URL(import.meta.url).pathname, run);
}
