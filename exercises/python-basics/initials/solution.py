def initials(name):
    return "".join(word[0].upper() + "." for word in name.split())
