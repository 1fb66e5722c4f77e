# Wrong: drops the lowest score from the sum but still divides by the number of all the scores.
def average(scores, drop_lowest=False):
    if not scores:
        raise ValueError("no scores to average")
    total = sum(scores)
    if drop_lowest:
        total -= min(scores)
    return total / len(scores)
