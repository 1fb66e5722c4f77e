# Wrong: puts a space between the initials.
def initials(name):
    return " ".join(word[0].upper() + "." for word in name.split())
