// On a phone the challenge page shows one panel at a time (Task, Code or Results), chosen with ARIA tabs
// docked at the bottom of the screen beside Run. Wider screens show every panel and no tabs: the tab roles
// are then taken off the panels, so nothing announces tabs that are not there.
export const PHONE = matchMedia("(max-width: 800px)");

/**
 * tablist: the [role=tablist] element; signal: aborts when the page is left. Returns {show(name)}: selects the tab
 * of panel `name` on a phone.
 */
export function setupTabs(tablist, { signal } = {}) {
  const tabs = [...tablist.querySelectorAll('[role="tab"]')];
  const panels = tabs.map((tab) => document.getElementById(tab.getAttribute("aria-controls")));
  let selected = 0;

  function apply() {
    const phone = PHONE.matches;
    document.body.classList.toggle("phone", phone);
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === selected));
      tab.tabIndex = i === selected ? 0 : -1;
      const panel = panels[i];
      panel.hidden = phone && i !== selected;
      if (phone) {
        panel.setAttribute("role", "tabpanel");
        panel.setAttribute("aria-labelledby", tab.id);
      } else {
        panel.removeAttribute("role");
        panel.removeAttribute("aria-labelledby");
      }
    });
  }

  function select(i, focus = false) {
    selected = (i + tabs.length) % tabs.length;
    apply();
    if (focus) tabs[selected].focus();
    // A new panel starts at its top, not wherever the last one was scrolled to.
    if (PHONE.matches) scrollTo({ top: 0 });
  }

  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(i));
    tab.disabled = false;
  });
  // The keys of the ARIA tabs pattern: arrows move and select, Home and End go to the ends.
  tablist.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (step) select(selected + step, true);
    else if (event.key === "Home") select(0, true);
    else if (event.key === "End") select(tabs.length - 1, true);
    else return;
    event.preventDefault();
  });
  PHONE.addEventListener("change", apply, { signal });
  apply();

  return {
    show(name) {
      const i = panels.findIndex((panel) => panel.id === `panel-${name}`);
      if (PHONE.matches && i !== selected) select(i);
    },
  };
}

