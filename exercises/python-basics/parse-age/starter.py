OLDEST = 130


def parse_age(text):
    # Raise ValueError("...") with the exact messages of the task.
    return int(text)
