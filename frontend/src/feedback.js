// A learner's feedback page (loopcraft/classroom/feedback.py writes it after a class is graded): every case of
// every challenge drawn by the results list of the challenge page, from the data the page carries (each case
// already cut down to what a learner may see, by grader/results.py's learner_view).
import { resultRow } from "./results.js";
import { parsePy } from "./pyvalue.js";
import { setupThemeToggle } from "./theme.js";

const data = JSON.parse(document.getElementById("feedback-data").textContent);
const lists = document.querySelectorAll("[data-feedback-cases]");
data.challenges.forEach((challenge, i) => {
  lists[i].replaceChildren(...challenge.cases.map((c) => {
    const values = c.hidden ? null : {
      expected: parsePy(c.expected_json),
      actual: c.actual_json === null ? undefined : parsePy(c.actual_json),
    };
    const row = resultRow({ name: c.name, hidden: c.hidden, private: c.private, input_text: c.input_text },
      c.result, values);
    row.dataset.testid = "feedback-case";
    row.dataset.challenge = challenge.slug;
    row.dataset.case = c.name;
    return row;
  }));
});
setupThemeToggle();
