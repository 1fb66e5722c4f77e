# Wrong: adds a plain number as if it were euros, where Money + 5 must raise TypeError.
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
            return Money(self.euros + other, self.cents)
        cents = self.cents + other.cents
        return Money(self.euros + other.euros + cents // 100, cents % 100)

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.euros == other.euros and self.cents == other.cents
