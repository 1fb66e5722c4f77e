ABSOLUTE_ZERO = -273.15  # in degrees Celsius


def check_above_absolute_zero(celsius):
    if celsius < ABSOLUTE_ZERO:
        raise ValueError("below absolute zero")


def to_fahrenheit(celsius):
    check_above_absolute_zero(celsius)
    return celsius * 9 / 5 + 32


def to_celsius(fahrenheit):
    celsius = (fahrenheit - 32) * 5 / 9
    check_above_absolute_zero(celsius)
    return celsius
