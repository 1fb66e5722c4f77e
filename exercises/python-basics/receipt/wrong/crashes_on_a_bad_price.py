# Wrong: lets float() raise on a price that is not a number, ending the whole program.
def main():
    total = 0.0
    count = 0
    line = input()
    while line.strip() != "done":
        parts = line.split()
        if len(parts) != 2:
            print(f"skipped: {line.strip()}")
        else:
            price = float(parts[1])
            print(f"{parts[0]}: {price:.2f}")
            total += price
            count += 1
        line = input()
    print(f"items: {count}")
    print(f"total: {total:.2f}")
