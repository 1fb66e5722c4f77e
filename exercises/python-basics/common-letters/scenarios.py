"""Valid arguments of common_letters(first, second): two short texts, in any case, with spaces and digits."""

TEXTS = {
    "": "apple",
    "a word in capitals": "PEAR",
    "two words": "green tea",
    "a digit and a dash": "route-66",
    "an empty text": "",
    "an accented letter": "café",
}


def scenario(pick):
    return {"first": pick.choice(TEXTS), "second": pick.choice(TEXTS)}
