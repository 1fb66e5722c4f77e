"""Valid ages for parse_age(text): the generated scenarios are answered, so none of them raises (the cases check
the errors)."""

TEXTS = {
    "": "42",
    "the oldest age": "130",
    "one below the oldest": "129",
    "zero": "0",
    "leading zeros": "007",
    "spaces around": " 18 ",
    "a tab before": "\t65",
}


def scenario(pick):
    return {"text": pick.choice(TEXTS)}
