// In the editor, a wrapped line's rest hangs under its own indentation, HANG columns further in (indent.js says
// why). Each line carries its width as --hang, which the editor's theme turns into the line's padding.
import { Decoration, ViewPlugin } from "@codemirror/view";
import { RangeSetBuilder, countColumn } from "@codemirror/state";
import { HANG } from "./indent.js";

// One decoration per indentation width, made once.
const decorations = new Map();
function hangBy(columns) {
  if (!decorations.has(columns)) {
    decorations.set(columns, Decoration.line({ attributes: { style: `--hang: ${columns + HANG}ch` } }));
  }
  return decorations.get(columns);
}

function build(view) {
  const builder = new RangeSetBuilder();
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = view.state.doc.lineAt(pos);
      builder.add(line.from, line.from, hangBy(countColumn(/^\s*/.exec(line.text)[0], view.state.tabSize)));
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

export const hangingIndent = ViewPlugin.fromClass(class {
  constructor(view) {
    this.decorations = build(view);
  }

  update(update) {
    if (update.docChanged || update.viewportChanged) this.decorations = build(update.view);
  }
}, { decorations: (plugin) => plugin.decorations });
