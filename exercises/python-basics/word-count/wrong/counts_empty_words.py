# Wrong: counts what is left of a word made only of punctuation, the empty text.
import string


def word_count(text):
    counts = {}
    for word in text.lower().split():
        word = word.strip(string.punctuation)
        counts[word] = counts.get(word, 0) + 1
    return counts
