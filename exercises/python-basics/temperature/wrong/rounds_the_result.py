# Wrong: rounds the result to a whole degree.
ABSOLUTE_ZERO = -273.15


def to_fahrenheit(celsius):
    if celsius < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")
    return round(celsius * 9 / 5 + 32)


def to_celsius(fahrenheit):
    celsius = (fahrenheit - 32) * 5 / 9
    if celsius < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")
    return round(celsius)
