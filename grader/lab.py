"""The loop lab: four scripted model habits meet loop designs on twelve tasks, in one run-case request.

The page (and the tests, through the Node runner) call `run_grid(world, loop)` with entry "run_grid",
sandbox "from grader.lab import run_grid" and source "": one case runs all 144 reference runs, plus 48 more
for the learner's own loop, so the grid costs one round trip instead of 192.

`world` is the source of the track's agent sandbox (make_llm, parse_tool_call, dispatch, SYSTEM_PROMPT):
every loop, the reference designs here and the learner's `run_agent`, runs in a fresh namespace of it, with
`make_llm` answering as the habit's model. A run is right when the loop returns the model's final answer;
its cost is the number of model calls.
"""

from __future__ import annotations

import builtins
import json

STEP_LIMIT = 8
LOOP_FILE = "solution.py"

HABITS = [
    ("stubborn", "repeats itself, ignores nudges"),
    ("repeats-until-told", "repeats until told it is repeating"),
    ("breaks-format", "breaks the format"),
    ("unknown-tool", "names a tool that does not exist"),
]
DESIGNS = [
    ("errors-end", "errors end the run"),
    ("fed-back", "errors fed back"),
    ("guarded", "fed back plus repeat guard"),
]
LEARNER = ("yours", "your loop")

# Twelve tasks, each needing one to three tool calls (23 in all, 1.9 a task), with distinct results within a task.
TASKS = [
    ("What is 17 + 25?", [("add", {"a": 17, "b": 25})]),
    ("What is the weather in Oslo?", [("get_weather", {"city": "Oslo"})]),
    ("How many words are in 'the loop is the product'?", [("word_count", {"text": "the loop is the product"})]),
    ("Add 2 and 3, then add 10 to the sum.", [("add", {"a": 2, "b": 3}), ("add", {"a": 5, "b": 10})]),
    ("Is it warmer in Lisbon or in Paris?", [("get_weather", {"city": "Lisbon"}), ("get_weather", {"city": "Paris"})]),
    (
        "Count the words of 'parse then dispatch', then add 4.",
        [("word_count", {"text": "parse then dispatch"}), ("add", {"a": 3, "b": 4})],
    ),
    ("Weather in Tokyo and in Oslo?", [("get_weather", {"city": "Tokyo"}), ("get_weather", {"city": "Oslo"})]),
    ("What is 1.5 + 1.5, plus 7?", [("add", {"a": 1.5, "b": 1.5}), ("add", {"a": 3, "b": 7})]),
    (
        "How many words in 'a b c d' and in 'e f'?",
        [("word_count", {"text": "a b c d"}), ("word_count", {"text": "e f"})],
    ),
    (
        "Weather in Paris, and how many words is that report?",
        [("get_weather", {"city": "Paris"}), ("word_count", {"text": "Paris: light rain, 14 C"})],
    ),
    ("Sum 1, 2, 3 and 4.", [("add", {"a": 1, "b": 2}), ("add", {"a": 3, "b": 3}), ("add", {"a": 6, "b": 4})]),
    (
        "Weather in Lisbon, Oslo and Tokyo?",
        [("get_weather", {"city": "Lisbon"}), ("get_weather", {"city": "Oslo"}), ("get_weather", {"city": "Tokyo"})],
    ),
]

PARSE_FEEDBACK = "error: could not parse your tool call ({}). Reply with a JSON tool call or a final answer."
NUDGE = (
    "You already called {} with these arguments. Use the result you have, call a different tool, "
    "or give your final answer."
)
REPEATS_BEFORE_NUDGE = 3  # the third identical action in a row gets the nudge; one more repeat ends the run


class Model:
    """A scripted model with one bad habit, stateful like a real one: it reads the transcript it is given."""

    def __init__(self, habit: str, calls: list, results: list[str]):
        self.habit = habit
        self.steps = calls
        self.results = results
        self.calls = 0
        self.last_broken = False

    def __call__(self, messages) -> str:
        self.calls += 1
        done = _progress(messages, self.results)
        stuck = self.habit == "stubborn" or (self.habit == "repeats-until-told" and not _told(messages))
        if stuck:
            reply = _call_text(*self.steps[0])
        elif done < len(self.steps):
            name, args = self.steps[done]
            if self.habit == "unknown-tool" and self.calls == 1:
                name = "lookup"
            reply = _call_text(name, args)
        else:
            reply = "Answer: " + " | ".join(self.results)
        if self.habit == "breaks-format" and self.calls > 1 and not self.last_broken:
            self.last_broken = True
            # The first try of every reply after the first is cut short: broken JSON.
            return _call_text("answer", {"text": reply})[:-1]
        self.last_broken = False
        return reply


def _call_text(name: str, args: dict) -> str:
    return json.dumps({"tool": name, "arguments": args})


def _messages(messages) -> list:
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def _progress(messages, results: list[str]) -> int:
    """How many of the task's steps have their result in the transcript, in order."""
    done = 0
    for message in _messages(messages):
        if done < len(results) and message.get("role") == "tool" and str(message.get("content")) == results[done]:
            done += 1
    return done


def _told(messages) -> bool:
    """Whether the loop has told the model it is repeating itself (in a message after the task)."""
    said = [str(m.get("content", "")).lower() for m in _messages(messages) if m.get("role") == "user"][1:]
    return any("already called" in text or "repeat" in text for text in said)


# --- The reference designs, written as a learner would write run_agent, against the same sandbox. ---------


def _reference(world: dict, task: str, *, feed_back: bool, guard: bool) -> dict:
    llm = world["make_llm"]([])
    messages = [{"role": "system", "content": world["SYSTEM_PROMPT"]}, {"role": "user", "content": task}]
    previous, streak, nudged = None, 0, False
    for step in range(1, STEP_LIMIT + 1):
        reply = llm(messages)
        messages.append({"role": "assistant", "content": reply})
        try:
            call = world["parse_tool_call"](reply)
        except ValueError as e:
            if not feed_back:
                return {"answer": None, "steps": step, "stop_reason": "error"}
            messages.append({"role": "user", "content": PARSE_FEEDBACK.format(e)})
            continue
        if call is None:
            return {"answer": reply, "steps": step, "stop_reason": "final_answer"}
        streak = streak + 1 if call == previous else 1
        previous = call
        if guard and streak >= REPEATS_BEFORE_NUDGE:
            if nudged:
                return {"answer": None, "steps": step, "stop_reason": "repeated_action"}
            nudged = True
            messages.append({"role": "user", "content": NUDGE.format(call["tool"])})
            continue
        result = world["dispatch"](call)
        if result.startswith("error:") and not feed_back:
            return {"answer": None, "steps": step, "stop_reason": "error"}
        messages.append({"role": "tool", "content": result})
    return {"answer": None, "steps": STEP_LIMIT, "stop_reason": "max_steps"}


REFERENCE = {
    "errors-end": lambda world, task: _reference(world, task, feed_back=False, guard=False),
    "fed-back": lambda world, task: _reference(world, task, feed_back=True, guard=False),
    "guarded": lambda world, task: _reference(world, task, feed_back=True, guard=True),
}


def _learner(loop_code):
    def run(world: dict, task: str) -> dict:
        exec(loop_code, world)
        run_agent = world.get("run_agent")
        if not callable(run_agent):
            raise NameError("your code does not define run_agent(task, script, max_steps)")
        return run_agent(task, [], max_steps=STEP_LIMIT)

    return run


def run_grid(world: str, loop: str | None = None) -> dict:
    """Every habit under every design (and the learner's loop, given its source), on every task.

    Cells: {habit, design, right (tasks answered right), tasks, share (0-100), calls (per task, one decimal)}.
    """
    world_code = compile(world, "sandbox.py", "exec", dont_inherit=True)

    def fresh(make_llm=None) -> dict:
        namespace = {"__name__": "solution", "__builtins__": builtins}
        exec(world_code, namespace)
        if make_llm is not None:
            namespace["make_llm"] = make_llm
        return namespace

    # Each step's result as the sandbox's dispatch gives it: what the model looks for in the transcript.
    results = [[fresh()["dispatch"]({"tool": name, "arguments": args}) for name, args in steps] for _, steps in TASKS]
    designs = [(key, REFERENCE[key]) for key, _ in DESIGNS]
    loop_error = None
    if loop is not None:
        try:
            designs.append((LEARNER[0], _learner(compile(loop, LOOP_FILE, "exec", dont_inherit=True))))
        except SyntaxError as exc:
            loop_error = f"SyntaxError: {exc.msg} (line {exc.lineno})"

    cells = []
    for habit, _ in HABITS:
        for design, run in designs:
            right = calls = 0
            for (task, steps), expected in zip(TASKS, results, strict=True):
                model = Model(habit, steps, expected)
                try:
                    answer = run(fresh(lambda _script, model=model: model), task).get("answer")
                except Exception as exc:  # noqa: BLE001 - a learner's loop that crashes loses the task
                    answer = None
                    loop_error = loop_error or f"{type(exc).__name__}: {exc}"
                right += answer == "Answer: " + " | ".join(expected)
                calls += model.calls
            cells.append(
                {
                    "habit": habit,
                    "design": design,
                    "right": right,
                    "tasks": len(TASKS),
                    "share": round(100 * right / len(TASKS)),
                    "calls": f"{calls / len(TASKS):.1f}",
                }
            )
    return {
        "habits": [dict(zip(("key", "label"), h, strict=True)) for h in HABITS],
        "designs": [
            dict(zip(("key", "label"), d, strict=True)) for d in DESIGNS + ([LEARNER] if loop is not None else [])
        ],
        "cells": cells,
        "loop_error": loop_error,
    }
