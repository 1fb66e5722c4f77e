class Money:
    def __init__(self, euros, cents=0):
        self.euros = euros
        self.cents = cents

    def __str__(self):
        return "?"

    def __repr__(self):
        return "?"

    # __add__ and __eq__ go here.
