# Wrong: keeps spaces, digits and punctuation the two texts share.
def common_letters(first, second):
    return set(first.lower()) & set(second.lower())
