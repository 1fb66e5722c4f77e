# Wrong: yields "Liftoff!" only after a count, so countdown(0) yields nothing.
def countdown(start):
    while start > 0:
        yield start
        start -= 1
        if start == 0:
            yield "Liftoff!"
