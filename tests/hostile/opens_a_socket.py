# include: reference
# expect-status: error, pass
# expect-message: Host is unreachable
# also-plain: yes
# Python's socket module needs no JavaScript from the solution: Pyodide's file system opens a WebSocket to any
# address it is given, so a page served without headers (no CSP) would let learner code connect anywhere.
_solve = run_agent


def run_agent(task, script, **options):
    if task == "maths":
        import socket

        with socket.create_connection(("127.0.0.1", 9), timeout=2) as connection:
            connection.sendall(b"from a learner's solution\n")
    return _solve(task, script, **options)
