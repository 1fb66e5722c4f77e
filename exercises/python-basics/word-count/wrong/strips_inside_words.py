# Wrong: removes every punctuation mark, inside words too, so "don't" becomes "dont".
import string


def word_count(text):
    counts = {}
    for word in text.lower().split():
        word = "".join(ch for ch in word if ch not in string.punctuation)
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
