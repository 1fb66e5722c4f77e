# Wrong: has no __eq__, so two Money objects of the same amount are equal only when they are the same object.
class Money:
    def __init__(self, euros, cents=0):
        if not 0 <= cents <= 99:
            raise ValueError("cents must be from 0 to 99")
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
