# Wrong: stops only at a line that is exactly "done", so "done " with a space is read as a line to skip.
def main():
    total = 0.0
    count = 0
    line = input()
    while line != "done":
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError(line)
            price = float(parts[1])
        except ValueError:
            print(f"skipped: {line.strip()}")
        else:
            print(f"{parts[0]}: {price:.2f}")
            total += price
            count += 1
        line = input()
    print(f"items: {count}")
    print(f"total: {total:.2f}")
