# Wrong: accepts any number of cents, so Money(1, 250) is made instead of refused.
class Money:
    def __init__(self, euros, cents=0):
        self.euros = euros
        self.cents = cents

    def __str__(self):
        return f"{self.euros}.{self.cents:02d} EUR"

    def __repr__(self):
        return f"Money({self.euros}, {self.cents})"

    def __add__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        cents = self.cents + other.cents
        return Money(self.euros + other.euros + cents // 100, cents % 100)

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.euros == other.euros and self.cents == other.cents
