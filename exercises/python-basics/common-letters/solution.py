def common_letters(first, second):
    second = second.lower()
    return {letter for letter in first.lower() if letter.isalpha() and letter in second}
