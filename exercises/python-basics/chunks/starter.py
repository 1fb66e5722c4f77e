class Chunks:
    def __init__(self, items, size):
        self.items = list(items)
        self.size = size

    def __iter__(self):
        return self

    def __next__(self):
        raise StopIteration
