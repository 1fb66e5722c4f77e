# expect-status: fail
# expect-message: Differs from expected at
# Printed HTML must be shown as text, in the page and anywhere else.
def run_agent(task, script, max_steps=5, max_consecutive_errors=3):
    print("<img src=x onerror=\"document.body.dataset.pwned=1\"><script>document.body.dataset.pwned=1</script>")
    return {"answer": "<b>bold</b>"}
