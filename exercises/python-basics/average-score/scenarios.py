"""Arguments of average(scores, drop_lowest=False) that leave scores to average (the cases check the error): two to
five scores, whole or not, often repeated."""

SCORES = {"": 10, "a zero": 0, "a fraction": 7.5, "a high score": 19, "a negative score": -2}


def scenario(pick):
    args = {"scores": pick.list(lambda pick: pick.choice(SCORES), 2, 5)}
    if pick.bool():
        args["drop_lowest"] = pick.bool()
    return args
