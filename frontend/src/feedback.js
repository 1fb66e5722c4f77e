// A learner's feedback page (loopcraft/classroom/feedback.py writes it after a class is graded): every case of
// every challenge drawn by the results list of the challenge page, from the data the page carries (each case
// already cut down to what a learner may see, by grader/results.py's learner_view).
import { resultRow } from "./results.js";
import { setupThemeToggle } from "./theme.js";

const data = JSON.parse(document.getElementById("feedback-data").textContent);
const lists = document.querySelectorAll("[data-feedback-cases]");
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

data.challenges.forEach((challenge, i) => {
  lists[i].replaceChildren(...challenge.cases.map((c) => {
    const row = caseRow(c);
    row.dataset.testid = "feedback-case";
    row.dataset.challenge = challenge.slug;
    row.dataset.case = c.name;
    return row;
  }));
});
setupThemeToggle();
