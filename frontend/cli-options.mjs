// The options of a script the host starts (node-runner.mjs, snapshot-maker.mjs): Node's parseArgs, strict, with
// every option named in `required` given; otherwise one line on stderr, "<script>: <why>", and exit status 2.
import { parseArgs } from "node:util";

export function cliOptions(script, options, required) {
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), strict: true, options });
    const missing = required.find((name) => !values[name]);
    if (missing) throw new Error(`--${missing} is required`);
    return values;
  } catch (error) {
    process.stderr.write(`${script}: ${error.message}\n`);
    process.exit(2);
  }
}
