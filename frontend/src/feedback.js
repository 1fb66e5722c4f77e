// The cases of a learner's feedback page (loopcraft/classroom/feedback.py gives their data, each case already cut
// down to what a learner may see by grader/results.py's learner_view), each drawn by the results list of the
// challenge page. They are drawn once, when the class is graded (frontend/feedback-pages.mjs), and written into
// the page as HTML: the page carries no script, since an LMS hands it back as it is (a Canvas comment's
// attachment, a file Moodle serves from its own site).
import { resultRow } from "./results.js";

// A case that cannot be drawn (what a learner's code left in its trace, say) is shown by its name and status, and
// the page goes on: one case never hides the others.
function caseRow(c) {
  const testCase = { name: c.name, hidden: c.hidden, private: c.private, input_text: c.input_text };
  try {
    const values = c.hidden ? null : { expected: c.expected_json, actual: c.actual_json };
    return resultRow(testCase, c.result, values);
  } catch (error) {
    const said = c.result.message ? `${c.result.message}\n\n` : "";
    const message = `${said}This case's details could not be shown here (${error}).`;
    return resultRow(testCase, { status: c.result.status, message, hidden: true, trace: [] }, null);
  }
}

/** The rows of one challenge of a page's data ({slug, cases}), as elements. */
export function challengeRows(challenge) {
  return challenge.cases.map((c) => {
    const row = caseRow(c);
    row.dataset.testid = "feedback-case";
    row.dataset.challenge = challenge.slug;
    row.dataset.case = c.name;
    return row;
  });
}
