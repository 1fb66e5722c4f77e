// For tests/pyodide/test_outcomes.py: reads a JSON list of [name, args] calls of grader/results.py's outcome functions
// and prints what frontend/src/outcomes.js answers to each ({"refused": true} when it throws).
import { readFileSync } from "node:fs";
import * as outcomes from "../../frontend/src/outcomes.js";

const camel = (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
const answers = JSON.parse(readFileSync(0, "utf8")).map(([name, args]) => {
  try {
    return outcomes[camel(name)](...args);
  } catch {
    return { refused: true };
  }
});
process.stdout.write(JSON.stringify(answers));
