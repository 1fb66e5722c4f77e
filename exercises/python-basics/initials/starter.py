def initials(name):
    # name.split() gives the words; word[0] is a word's first letter.
    return ""
