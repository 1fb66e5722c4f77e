// Brotli for the build (Python's standard library has no Brotli; Node's zlib does).
// stdin: JSON [[source, destination, quality], ...]; writes each destination.
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

for (const [source, destination, quality] of JSON.parse(readFileSync(0, "utf8"))) {
  const data = readFileSync(source);
  const params = { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: data.length };
  writeFileSync(destination, brotliCompressSync(data, { params }));
}
