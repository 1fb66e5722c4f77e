# Wrong: quotes the text as it came, spaces included, instead of the stripped text.
OLDEST = 130


def parse_age(text):
    if not text.strip().isdecimal():
        raise ValueError(f"age must be a whole number, not {text!r}")
    age = int(text)
    if age > OLDEST:
        raise ValueError(f"age must be at most {OLDEST}, not {age}")
    return age
