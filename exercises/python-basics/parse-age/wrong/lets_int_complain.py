# Wrong: lets int() raise its own ValueError, whose message is not the one asked for.
OLDEST = 130


def parse_age(text):
    age = int(text)
    if age > OLDEST:
        raise ValueError(f"age must be at most {OLDEST}, not {age}")
    return age
