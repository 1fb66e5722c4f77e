// The code editor: CodeMirror 6 with Python support. It works on its own, so
// the learner can type while Python is still loading.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { Prec } from "@codemirror/state";
import { indentWithTab, isolateHistory } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";

/**
 * parent: element to mount into; doc: initial text; onRun: called on
 * Ctrl/Cmd+Enter; label: accessible name of the editing area.
 */
export function createEditor({ parent, doc, onRun, label }) {
  const listeners = [];
  const view = new EditorView({
    parent,
    doc,
    extensions: [
      // Highest precedence: basicSetup binds Mod-Enter to "insert blank line".
      Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (onRun(), true) }])),
      basicSetup,
      // Tab indents; Escape then Tab still moves focus out (CodeMirror's tab-focus mode).
      keymap.of([indentWithTab]),
      python(),
      EditorView.editorAttributes.of({ "data-testid": "editor" }),
      EditorView.contentAttributes.of({ "aria-label": label }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) for (const fn of listeners) fn(update.state.doc.toString());
      }),
    ],
  });

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
  };
}
