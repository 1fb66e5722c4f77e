def main():
    line = input()
    while line.strip() != "done":
        print(line)
        line = input()
