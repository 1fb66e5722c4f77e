OLDEST = 130


def parse_age(text):
    text = text.strip()
    if not text.isdecimal():
        raise ValueError(f"age must be a whole number, not {text!r}")
    age = int(text)
    if age > OLDEST:
        raise ValueError(f"age must be at most {OLDEST}, not {age}")
    return age
