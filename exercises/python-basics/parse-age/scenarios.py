"""Valid arguments of parse_age(text): ages in range and out of it, and texts that are no whole number."""

TEXTS = {
    "": "42",
    "the oldest age": "130",
    "one past the oldest": "131",
    "zero": "0",
    "leading zeros": "007",
    "spaces around": " 18 ",
    "a negative number": "-5",
    "a decimal number": "4.5",
    "a word": "ten",
    "an empty text": "",
}


def scenario(pick):
    return {"text": pick.choice(TEXTS)}
