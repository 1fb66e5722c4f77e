# Wrong: drops every score equal to the lowest, where only one of them goes.
def average(scores, drop_lowest=False):
    if drop_lowest and scores:
        lowest = min(scores)
        scores = [score for score in scores if score != lowest]
    if not scores:
        raise ValueError("no scores to average")
    return sum(scores) / len(scores)
