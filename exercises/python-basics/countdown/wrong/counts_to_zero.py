# Wrong: counts down to 0 included, one number too far.
def countdown(start):
    while start >= 0:
        yield start
        start -= 1
    yield "Liftoff!"
