# The sandbox (SYSTEM_PROMPT, TOOLS, make_llm, parse_tool_call, dispatch) is
# loaded before this file: call those names directly.


def run_agent(task, script, max_steps=5):
    llm = make_llm(script)
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": task}]
    tools_called = []

    # TODO: for each step, 1 to max_steps:
    # - ask the model: reply = llm(messages), and add the reply to messages
    #   as an "assistant" message
    # - parse it with parse_tool_call(reply); None means a final answer,
    #   which ends the run
    # - otherwise record the tool's name, run the call with dispatch(call),
    #   and add the result to messages as a "tool" message

    # Out of steps without a final answer.
    return {"answer": None, "steps": max_steps, "tools_called": tools_called,
            "stop_reason": "max_steps"}
