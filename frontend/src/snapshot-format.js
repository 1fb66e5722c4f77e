// The form a memory snapshot of Python is kept in, in a browser's Cache Storage (worker.js) and in the site the
// build ships (snapshot-maker.mjs): without its whole 4 KiB pages of zeros. About half of a snapshot (15 of its
// 31 MB) is memory Python never wrote; kept without it, a restore reads half as much, and the site's copy is
// compressed from half as much.
//
// Kept as: the snapshot's length (4 bytes, little-endian), one byte a page (1: kept), then the kept pages in order
// (the last one may be short).
const PAGE = 4096;

export function sparse(snapshot) {
  if (snapshot.byteLength % 4 || snapshot.byteOffset % 4) throw new Error("a snapshot is whole words");
  const length = snapshot.byteLength;
  const pages = Math.ceil(length / PAGE);
  const words = new Uint32Array(snapshot.buffer, snapshot.byteOffset, length / 4);
  const kept = new Uint8Array(pages);
  let size = 0;
  for (let page = 0; page < pages; page++) {
    for (let word = page * (PAGE / 4), end = Math.min(word + PAGE / 4, words.length); word < end; word++) {
      if (words[word] !== 0) {
        kept[page] = 1;
        size += Math.min(PAGE, length - page * PAGE);
        break;
      }
    }
  }
  const stored = new Uint8Array(4 + pages + size);
  new DataView(stored.buffer).setUint32(0, length, true);
  stored.set(kept, 4);
  for (let page = 0, at = 4 + pages; page < pages; page++) {
    if (!kept[page]) continue;
    const bytes = snapshot.subarray(page * PAGE, (page + 1) * PAGE);
    stored.set(bytes, at);
    at += bytes.length;
  }
  return stored;
}

// The snapshot itself, in `into` if given (zeros, of the snapshot's length); one whose parts do not add up is refused
// (a restore never starts from it).
export function whole(buffer, into = null) {
  const stored = ArrayBuffer.isView(buffer) ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : new Uint8Array(buffer);
  if (stored.length < 4) throw new Error("the kept snapshot is damaged");
  const length = new DataView(stored.buffer, stored.byteOffset).getUint32(0, true);
  const pages = Math.ceil(length / PAGE);
  if (stored.length < 4 + pages) throw new Error("the kept snapshot is damaged");
  if (into && into.length !== length) throw new Error("the kept snapshot is damaged");
  const snapshot = into ?? new Uint8Array(length);
  let at = 4 + pages;
  for (let page = 0; page < pages; ) {
    if (!stored[4 + page]) {
      page++;
      continue;
    }
    let end = page + 1; // a run of kept pages is copied at once
    while (end < pages && stored[4 + end]) end++;
    const size = Math.min(end * PAGE, length) - page * PAGE;
    snapshot.set(stored.subarray(at, at + size), page * PAGE);
    at += size;
    page = end;
  }
  if (at !== stored.length) throw new Error("the kept snapshot is damaged");
  return snapshot;
}
