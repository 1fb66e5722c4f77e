# Wrong: takes only the first and the last word, so a middle name is lost.
def initials(name):
    words = name.split()
    if not words:
        return ""
    if len(words) == 1:
        return words[0][0].upper() + "."
    return words[0][0].upper() + "." + words[-1][0].upper() + "."
