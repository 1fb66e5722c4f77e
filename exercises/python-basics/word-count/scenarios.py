"""Valid arguments of word_count(text): a few words, repeated, in any case, with punctuation and whitespace."""

WORDS = {
    "": "cat",
    "a word in capitals": "Cat",
    "a word with a comma": "cat,",
    "a word in quotes": '"dog"',
    "an apostrophe inside a word": "don't",
    "a hyphen inside a word": "well-known",
    "a lone dash": "-",
}
GAPS = {"": " ", "a new line": "\n", "two spaces": "  "}


def scenario(pick):
    words = pick.list(lambda pick: pick.choice(WORDS), 0, 6)
    return {"text": pick.choice(GAPS).join(words)}
