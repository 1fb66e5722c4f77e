# Wrong: builds the whole list at once and returns it, so countdown is no generator.
def countdown(start):
    return list(range(start, 0, -1)) + ["Liftoff!"]
