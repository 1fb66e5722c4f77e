def countdown(start):
    # A function with `yield` in it is a generator: each yield gives the next value.
    yield start
