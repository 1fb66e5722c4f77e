# Wrong: builds the receipt and returns it instead of printing it.
def main():
    lines = []
    total = 0.0
    count = 0
    line = input()
    while line.strip() != "done":
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError(line)
            price = float(parts[1])
        except ValueError:
            lines.append(f"skipped: {line.strip()}")
        else:
            lines.append(f"{parts[0]}: {price:.2f}")
            total += price
            count += 1
        line = input()
    lines.append(f"items: {count}")
    lines.append(f"total: {total:.2f}")
    return "\n".join(lines)
