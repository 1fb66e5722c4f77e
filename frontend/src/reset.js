// A fresh interpreter without starting Pyodide again: an interpreter that is ready (the grader imported, the way to
// JavaScript cut) is captured once, and returned to that state in place before each submission. Starting Pyodide
// from its memory snapshot cost about 0.26 CPU-seconds under Node (instantiating the module, Emscripten's start-up,
// importing _pyodide_core again); a reset copies memory back and puts back what JavaScript keeps.
//
// What an interpreter is, and how each part comes back (see docs/threat-model.md, "Reset in place"):
// - linear memory: copied back whole from the image (30 MB: 5 to 10 ms, most of a reset; finding the pages that
//   changed would read both copies, as much as copying one);
// - the module's mutable globals: the stack pointer (exported), the stack's limits and the 64-bit return scratch
//   (internal, read and written through their exported accessors): the wasm binary defines these four and no other;
// - the function table: unchanged or no reset (its length and Emscripten's free list, and every entry compared);
// - Pyodide's table of JavaScript values (hiwire) and its immortal table: every slot put back; grown, no reset;
// - the file system: every node's fields, each directory's entries and each file's bytes as they were, the name
//   lookup table made again, open files as they were (others closed), the working directory;
// - random state: drawn afresh (`random.seed()`), as after a restore.
// Anything the reset cannot vouch for (memory or a table that grew, a mount, a JavaScript value it does not know)
// returns its reason instead, and the caller starts the interpreter afresh as before.

import { sameBytes } from "./same-bytes.js";

// A file's bytes as they are: a view of them where the file keeps a typed array, which a reset compares and never
// copies (copying the standard library's 2.5 MB zip element by element took up to 20 ms of a reset), else a copy.
const bytesNow = ({ contents, usedBytes }) =>
  !contents ? null : contents.subarray ? contents.subarray(0, usedBytes) : Uint8Array.from(contents);

// Slots of a table read through `get` until it throws (past its end).
function slots(get) {
  const values = [];
  for (;;) {
    try {
      values.push(get(values.length));
    } catch {
      return values;
    }
  }
}
function hasSlot(get, index) {
  try {
    get(index);
    return true;
  } catch {
    return false;
  }
}

function captureFiles(FS) {
  const nodes = [];
  const walk = (node) => {
    const entry = { node, fields: { ...node } };
    if (FS.isDir(node.mode)) entry.entries = { ...node.contents };
    else if (FS.isFile(node.mode)) entry.bytes = bytesNow(node)?.slice() ?? null;
    nodes.push(entry);
    if (entry.entries) for (const child of Object.values(entry.entries)) walk(child);
    if (node.mounted) walk(node.mounted.root);
  };
  walk(FS.root);
  const streams = FS.streams.map((stream) => stream && {
    stream,
    fields: { ...stream },
    shared: stream.shared && { ...stream.shared },
    output: stream.tty ? [...stream.tty.output] : null,
  });
  return {
    nodes,
    streams,
    mounts: FS.getMounts(FS.root.mount).length,
    currentPath: FS.currentPath,
    nextInode: FS.nextInode,
    hashSize: FS.nameTable.length,
  };
}

function restoreFiles(FS, files) {
  if (FS.getMounts(FS.root.mount).length !== files.mounts) return "a file system was mounted";
  for (const { node, fields, entries, bytes } of files.nodes) {
    for (const key of Object.keys(node)) if (!(key in fields)) delete node[key];
    Object.assign(node, fields);
    if (entries) node.contents = { ...entries };
    else if (bytes !== undefined) {
      const now = bytesNow(node);
      if (bytes === null ? now !== null : !(now && sameBytes(now, bytes))) node.contents = bytes && bytes.slice();
      node.usedBytes = bytes ? bytes.length : 0;
    }
  }
  FS.nameTable = new Array(files.hashSize);
  for (const { node } of files.nodes) FS.hashAddNode(node);
  const streams = [];
  for (const kept of files.streams) {
    if (!kept) continue;
    const { stream, fields, shared, output } = kept;
    for (const key of Object.keys(stream)) if (!(key in fields)) delete stream[key];
    Object.assign(stream, fields);
    if (shared) Object.assign(stream.shared, shared);
    if (output) stream.tty.output = [...output];
    streams[stream.fd] = stream;
  }
  FS.streams.length = 0;
  FS.streams.push(...Array.from({ length: files.streams.length }, (_, fd) => streams[fd] ?? null));
  FS.currentPath = files.currentPath;
  FS.nextInode = files.nextInode;
  return null;
}

// `pyodide` must be between calls, with every proxy the caller will use made already (their references are part
// of the image). Returns {reset(): null | reason}.
export function keepPristine(pyodide) {
  const M = pyodide._module;
  const FS = pyodide.FS;
  const table = M.wasmTable;
  const image = {
    memory: M.HEAPU8.slice(),
    stackPointer: M.___stack_pointer.value,
    stackBase: M._emscripten_stack_get_base(),
    stackEnd: M._emscripten_stack_get_end(),
    tempRet: M.__emscripten_tempret_get(),
    table: Array.from({ length: table.length }, (_, i) => table.get(i)),
    freeTable: [...M.freeTableIndexes],
    hiwire: slots((i) => M.__hiwire_get(i)),
    immortal: slots((i) => M.__hiwire_immortal_get(i)),
    files: captureFiles(FS),
  };

  function vouch() {
    if (M.HEAPU8.length !== image.memory.length) return "its memory grew";
    if (table.length !== image.table.length) return "its function table grew";
    if (M.freeTableIndexes.length !== image.freeTable.length || M.freeTableIndexes.some((v, i) => v !== image.freeTable[i])) {
      return "its function table changed";
    }
    for (let i = 0; i < image.table.length; i++) if (table.get(i) !== image.table[i]) return "its function table changed";
    if (hasSlot((i) => M.__hiwire_get(i), image.hiwire.length)) return "its table of JavaScript values grew";
    if (hasSlot((i) => M.__hiwire_immortal_get(i), image.immortal.length)) return "its table of JavaScript values grew";
    return null;
  }

  return {
    reset() {
      const refused = vouch();
      if (refused) return refused;
      M.HEAPU8.set(image.memory);
      M.___stack_pointer.value = image.stackPointer;
      M._emscripten_stack_set_limits(image.stackBase, image.stackEnd);
      M.__emscripten_tempret_set(image.tempRet);
      image.hiwire.forEach((value, i) => M.__hiwire_get(i) !== value && M.__hiwire_set(i, value));
      const files = restoreFiles(FS, image.files);
      if (files) return files;
      pyodide.runPython("import random; random.seed()");
      return null;
    },
  };
}
