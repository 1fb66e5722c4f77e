def common_letters(first, second):
    letters = set()
    # Add each letter of first (in lowercase) that second holds too.
    return letters
