# Wrong: counts up from 1 to start instead of down.
def countdown(start):
    for number in range(1, start + 1):
        yield number
    yield "Liftoff!"
