# Wrong: counts "The" and "the" as two different words.
import string


def word_count(text):
    counts = {}
    for word in text.split():
        word = word.strip(string.punctuation)
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
