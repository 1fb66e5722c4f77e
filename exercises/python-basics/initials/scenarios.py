"""Valid arguments of initials(name): one to four words, in any case, with spaces around and between."""

WORDS = {"": "ada", "a capitalised word": "Grace", "a word in capitals": "TURING", "a one-letter word": "j"}
GAPS = {"": " ", "two spaces": "  ", "a tab": "\t"}


def scenario(pick):
    words = pick.list(lambda pick: pick.choice(WORDS), 0, 4)
    name = pick.choice(GAPS).join(words)
    if pick.bool():
        pick.label("spaces around the name")
        name = f"  {name} "
    return {"name": name}
