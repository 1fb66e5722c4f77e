import string


def word_count(text):
    counts = {}
    # For each word: make it lowercase, strip string.punctuation from its ends, count it.
    return counts
