// Whether two byte views hold the same bytes: word by word where both start aligned (about 8 ms for Pyodide's 9.6 MB
// module), the rest byte by byte. Used to know Pyodide's module again (worker-core.js) and a file a reset puts back
// (reset.js).
export function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  let i = 0;
  if ((a.byteOffset | b.byteOffset) % 4 === 0) {
    const words = a.byteLength >> 2;
    const x = new Int32Array(a.buffer, a.byteOffset, words);
    const y = new Int32Array(b.buffer, b.byteOffset, words);
    for (; i < words; i++) if (x[i] !== y[i]) return false;
    i = words * 4;
  }
  for (; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
