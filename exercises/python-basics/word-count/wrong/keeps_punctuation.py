# Wrong: leaves the punctuation on, so "cat," and "cat" are two different words.
def word_count(text):
    counts = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 0) + 1
    return counts
