# Wrong: adds the cents without carrying whole euros, so 60 + 50 cents makes 110 cents, which Money refuses.
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
        return Money(self.euros + other.euros, self.cents + other.cents)

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.euros == other.euros and self.cents == other.cents
