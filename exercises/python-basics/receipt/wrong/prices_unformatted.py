# Wrong: prints the prices as float() writes them (0.4), not with two decimals (0.40).
def main():
    total = 0.0
    count = 0
    line = input()
    while line.strip() != "done":
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError(line)
            name, price = parts[0], float(parts[1])
        except ValueError:
            print(f"skipped: {line.strip()}")
        else:
            print(f"{name}: {price}")
            total += price
            count += 1
        line = input()
    print(f"items: {count}")
    print(f"total: {total:.2f}")
