# Wrong: scales the degrees but forgets the 32 degrees between the two scales' zeros.
ABSOLUTE_ZERO = -273.15


def to_fahrenheit(celsius):
    if celsius < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")
    return celsius * 9 / 5


def to_celsius(fahrenheit):
    celsius = fahrenheit * 5 / 9
    if celsius < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")
    return celsius
