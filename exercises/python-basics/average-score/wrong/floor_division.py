# Wrong: divides with //, which throws away the fraction of the average.
def average(scores, drop_lowest=False):
    if drop_lowest:
        scores = sorted(scores)[1:]
    if not scores:
        raise ValueError("no scores to average")
    return sum(scores) // len(scores)
