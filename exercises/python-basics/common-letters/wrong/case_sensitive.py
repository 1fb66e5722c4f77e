# Wrong: compares the letters as written, so "A" and "a" are different letters.
def common_letters(first, second):
    return {letter for letter in first if letter.isalpha() and letter in second}
