def read_item(line):
    # The (name, price) of a line such as "apple 0.40", or None when the line is not one.
    parts = line.split()
    if len(parts) != 2:
        return None
    try:
        return parts[0], float(parts[1])
    except ValueError:
        return None


def main():
    total = 0.0
    count = 0
    line = input()
    while line.strip() != "done":
        item = read_item(line)
        if item is None:
            print(f"skipped: {line.strip()}")
        else:
            name, price = item
            print(f"{name}: {price:.2f}")
            total += price
            count += 1
        line = input()
    print(f"items: {count}")
    print(f"total: {total:.2f}")
