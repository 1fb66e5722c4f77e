// The header's dark-mode toggle. base.html's inline script applies a stored choice before the first paint;
// without one, style.css follows the system's colour scheme, and so does the toggle's state.
const KEY = "loopcraft:theme";
const systemDark = matchMedia("(prefers-color-scheme: dark)");

const isDark = () => (document.documentElement.dataset.theme ?? (systemDark.matches ? "dark" : "light")) === "dark";

// signal: aborts when the page is left (navigate.js), taking the toggle's listeners on the window with it.
export function setupThemeToggle({ signal } = {}) {
  const button = document.querySelector('[data-testid="theme-toggle"]');
  if (!button) return;
  const show = () => button.setAttribute("aria-pressed", String(isDark()));
  button.addEventListener("click", () => {
    const theme = isDark() ? "light" : "dark";
    document.documentElement.dataset.theme = theme;
    try {
      localStorage.setItem(KEY, theme);
    } catch {
      // Not remembered; this page still switches.
    }
    show();
  });
  systemDark.addEventListener("change", show, { signal });
  // Another tab chose: this one follows, so the site never shows two themes at once.
  addEventListener("storage", (event) => {
    if (event.key !== KEY) return;
    if (event.newValue === "light" || event.newValue === "dark") document.documentElement.dataset.theme = event.newValue;
    else delete document.documentElement.dataset.theme;
    show();
  }, { signal });
  show();
  button.hidden = false;
}
