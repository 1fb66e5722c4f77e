ABSOLUTE_ZERO = -273.15  # in degrees Celsius


def to_fahrenheit(celsius):
    return 0.0


def to_celsius(fahrenheit):
    return 0.0
