# Wrong: subtracts 32 after scaling instead of before, in to_celsius.
ABSOLUTE_ZERO = -273.15


def to_fahrenheit(celsius):
    if celsius < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")
    return celsius * 9 / 5 + 32


def to_celsius(fahrenheit):
    celsius = fahrenheit * 5 / 9 - 32
    if celsius < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")
    return celsius
