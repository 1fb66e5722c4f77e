# Wrong: returns 0 when there is nothing to average, instead of raising ValueError.
def average(scores, drop_lowest=False):
    if drop_lowest:
        scores = sorted(scores)[1:]
    if not scores:
        return 0
    return sum(scores) / len(scores)
