# Wrong: takes the letters of either text (the union), not those of both.
def common_letters(first, second):
    return {letter for letter in (first + second).lower() if letter.isalpha()}
