# Wrong: returns None for a bad age instead of raising an error.
OLDEST = 130


def parse_age(text):
    text = text.strip()
    if not text.isdecimal():
        return None
    age = int(text)
    if age > OLDEST:
        return None
    return age
