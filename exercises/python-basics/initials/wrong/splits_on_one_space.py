# Wrong: splits on single spaces, so two spaces in a row make an empty "word" and word[0] fails.
def initials(name):
    return "".join(word[0].upper() + "." for word in name.split(" "))
