// The one judge (src/judge.js) for outcomes made outside the Node runner: the in-process runner's
// (loopcraft/running/runners.py HostRunner, which runs trusted code in the host's CPython) and tests that judge outcomes
// they made (loopcraft/running/judging.py starts it, once a process). No Pyodide: Node and the judge's modules only.
//
// Requests on stdin, one JSON object a line: {"id", "cases", "outcomes", "time_limit", "mistakes", "ended"} (cases and
// mistakes as node-runner.mjs takes them; outcomes, those of the cases that ran, in order; ended: why the run ended
// before its last case, or null). Replies on stdout, one a line: {"id", "verdict"} (node-runner.mjs's verdict), or
// {"id", "error"} for a request the judge refused.
import { createInterface } from "node:readline";
import { judgeRun } from "./src/judge.js";
import { verdictText } from "./src/verdict.js";

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  let id = null;
  let reply;
  try {
    const request = JSON.parse(line);
    id = request.id;
    const verdict = await judgeRun(request.cases, request.outcomes,
      { timeLimit: request.time_limit, catalogue: request.mistakes ?? null, ended: request.ended ?? null });
    reply = `{"id":${JSON.stringify(id)},"verdict":${verdictText(verdict)}}`;
  } catch (error) {
    reply = JSON.stringify({ id, error: String(error?.stack ?? error) });
  }
  process.stdout.write(`${reply}\n`);
}
