def average(scores, drop_lowest=False):
    return sum(scores) / len(scores)
