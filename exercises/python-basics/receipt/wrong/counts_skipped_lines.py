# Wrong: counts the skipped lines among the items.
def main():
    total = 0.0
    count = 0
    line = input()
    while line.strip() != "done":
        count += 1
        parts = line.split()
        try:
            name, price = parts[0], float(parts[1])
        except (ValueError, IndexError):
            print(f"skipped: {line.strip()}")
        else:
            if len(parts) != 2:
                print(f"skipped: {line.strip()}")
            else:
                print(f"{name}: {price:.2f}")
                total += price
        line = input()
    print(f"items: {count}")
    print(f"total: {total:.2f}")
