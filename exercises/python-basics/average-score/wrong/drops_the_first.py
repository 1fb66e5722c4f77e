# Wrong: drops the first score instead of the lowest.
def average(scores, drop_lowest=False):
    if drop_lowest:
        scores = scores[1:]
    if not scores:
        raise ValueError("no scores to average")
    return sum(scores) / len(scores)
