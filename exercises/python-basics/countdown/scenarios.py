"""Valid arguments of countdown(start): small whole numbers, zero and negative ones too."""


def scenario(pick):
    return {"start": pick.int(-2, 6)}
