# Wrong: keeps each first letter as it was written, so a name typed in lowercase keeps lowercase initials.
def initials(name):
    return "".join(word[0] + "." for word in name.split())
