# Wrong: compares the Fahrenheit temperature with absolute zero in Celsius, so -400 F (-240 C) is refused.
ABSOLUTE_ZERO = -273.15


def to_fahrenheit(celsius):
    if celsius < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")
    return celsius * 9 / 5 + 32


def to_celsius(fahrenheit):
    if fahrenheit < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")
    return (fahrenheit - 32) * 5 / 9
