// The code editor: CodeMirror 6 with Python support. It works on its own, so
// the learner can type while Python is still loading.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { Prec } from "@codemirror/state";
import { indentWithTab, isolateHistory } from "@codemirror/commands";
import { indentUnit, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { classHighlighter } from "@lezer/highlight";
import { python } from "@codemirror/lang-python";
import { indentUnitOf } from "./indent.js";
import { hangingIndent } from "./wrap.js";

// Font sizes the A-/A+ controls step through, in pixels.
export const FONT_SIZES = [12, 13, 14, 16, 18, 20, 22, 24];

// Colours come from style.css's custom properties, so the editor follows the page's light or dark theme
// without being rebuilt. Syntax colours are the tok-* classes of classHighlighter, also styled there.
const theme = EditorView.theme({
  // A container, so that a line's hang can be capped by the editor's width (cqi) in both properties below alike.
  "&": { backgroundColor: "var(--surface)", color: "var(--text)", containerType: "inline-size" },
  ".cm-content": { caretColor: "var(--cm-cursor)" },
  // A wrapped line's rows after the first start --hang further in (wrap.js); the first keeps its place. At most a
  // third of the editor's width: on a phone, a line indented deep would otherwise wrap into a column a word wide.
  ".cm-line": {
    paddingLeft: "calc(6px + min(var(--hang, 0ch), 33cqi))",
    textIndent: "calc(-1 * min(var(--hang, 0ch), 33cqi))",
  },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--cm-cursor)" },
  ".cm-gutters": { backgroundColor: "var(--cm-gutter-bg)", color: "var(--cm-gutter-text)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--cm-active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--cm-active-line)", color: "var(--text)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection":
    { backgroundColor: "var(--cm-selection)" },
  "&.cm-focused .cm-matchingBracket": { backgroundColor: "var(--cm-bracket)" },
  ".cm-panels, .cm-tooltip": { backgroundColor: "var(--surface-2)", color: "var(--text)", borderColor: "var(--border-strong)" },
  ".cm-tooltip-autocomplete ul li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--on-accent)" },
  ".cm-diagnostic-error": { borderLeftColor: "var(--fail)" },
  ".cm-lintRange-error": { backgroundImage: "none", textDecoration: "underline wavy var(--fail)", textDecorationSkipInk: "none" },
});

/**
 * parent: element to mount into; doc: initial text; indentFrom: the code the learner starts from (the starter),
 * whose indent unit Enter, Tab, Shift-Tab and Backspace keep (indent.js); onRun: called on Ctrl/Cmd+Enter;
 * onZoom(step): Ctrl/Cmd+= (+1), Ctrl/Cmd+- (-1); label: accessible name of the editing area; signal: aborts when
 * the page is left without unloading (navigate.js), which takes the editor's own listeners and observers with it.
 */
export function createEditor({ parent, doc, indentFrom, onRun, onZoom = () => {}, label, signal }) {
  const listeners = [];
  const zoom = (step) => () => (onZoom(step), true);
  const unit = indentUnitOf(indentFrom);
  const view = new EditorView({
    parent,
    doc,
    extensions: [
      // Highest precedence: basicSetup binds Mod-Enter to "insert blank line".
      Prec.highest(keymap.of([
        { key: "Mod-Enter", run: () => (onRun(), true) },
        { key: "Mod-=", run: zoom(1) },
        { key: "Mod-+", run: zoom(1) },
        { key: "Mod--", run: zoom(-1) },
      ])),
      basicSetup,
      // Tab indents; Escape then Tab still moves focus out (CodeMirror's tab-focus mode).
      keymap.of([indentWithTab]),
      // Enter indents by the unit, Tab and Shift-Tab add and remove one, Backspace in leading spaces deletes one.
      indentUnit.of(unit),
      python(),
      // Long lines wrap rather than scroll sideways: on a phone a sideways scroll hides most of a line and its
      // indentation with it. A wrapped line's rest hangs under its own indentation (wrap.js), so that the block
      // structure still reads at a glance; the line numbers tell a wrapped line from a new one.
      EditorView.lineWrapping,
      hangingIndent,
      // basicSetup's own highlighting is a fallback, used only when no other is given.
      syntaxHighlighting(classHighlighter),
      theme,
      lintGutter(),
      EditorView.editorAttributes.of({ "data-testid": "editor" }),
      // An explicit tabindex: accessibility checkers then see that the scrolling editor takes the keyboard.
      EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) for (const fn of listeners) fn(update.state.doc.toString());
      }),
    ],
  });

  // CodeMirror measures its lines only when they are on the screen: an editor made below the fold (a lesson's
  // live block) would draw its line numbers at a guessed height until scrolled to. A request to keep its own
  // scroll position makes it measure now, and scrolls nothing.
  view.dispatch({ effects: view.scrollSnapshot() });
  signal?.addEventListener("abort", () => view.destroy());

  const lineAt = (line) => view.state.doc.line(Math.min(Math.max(line, 1), view.state.doc.lines));

  return {
    getText: () => view.state.doc.toString(),
    /** Replaces the whole text as one transaction, so Ctrl+Z brings the old text back. */
    setText(text) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        selection: { anchor: 0 },
        scrollIntoView: true,
        userEvent: "input.replace",
        // Its own undo step: never merged with typing just before or after.
        annotations: isolateHistory.of("full"),
      });
    },
    onChange(fn) {
      listeners.push(fn);
    },
    focus: () => view.focus(),
    setFontSize(px) {
      view.dom.style.fontSize = `${px}px`;
      view.requestMeasure();
    },
    /** Marks `line` (1-based; clamped to the text) with `message` and scrolls the editor's own text to it, or clears
     * every mark when line is null. The page around the editor does not move: the learner is reading the results. */
    markError(line, message) {
      if (line === null) return view.dispatch(setDiagnostics(view.state, []));
      const at = lineAt(line);
      view.dispatch(setDiagnostics(view.state, [{ from: at.from, to: at.to, severity: "error", message }]));
      view.requestMeasure({
        read: () => view.lineBlockAt(at.from).top - view.scrollDOM.clientHeight / 3,
        write: (top) => view.scrollDOM.scrollTo({ top: Math.max(0, top) }),
      });
    },
    /** Puts the cursor at the start of `line` (1-based), scrolled into view, and the focus in the editor. */
    goToLine(line) {
      const at = lineAt(line);
      view.dispatch({ selection: { anchor: at.from }, effects: EditorView.scrollIntoView(at.from, { y: "center" }) });
      view.focus();
    },
  };
}
