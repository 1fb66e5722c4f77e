# Wrong: returns a list, which keeps repeated letters and an order, where a set has neither.
def common_letters(first, second):
    second = second.lower()
    return [letter for letter in first.lower() if letter.isalpha() and letter in second]
