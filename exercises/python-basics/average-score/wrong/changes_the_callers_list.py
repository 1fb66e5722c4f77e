# Wrong: removes the lowest score from the caller's own list, so the caller's data changes.
def average(scores, drop_lowest=False):
    if drop_lowest and scores:
        scores.remove(min(scores))
    if not scores:
        raise ValueError("no scores to average")
    return sum(scores) / len(scores)
