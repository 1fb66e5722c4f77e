# Wrong: stops after 1 without the last "Liftoff!".
def countdown(start):
    while start > 0:
        yield start
        start -= 1
