# Wrong: never checks size, so Chunks(items, 0) yields empty chunks forever instead of raising ValueError.
class Chunks:
    def __init__(self, items, size):
        self.items = list(items)
        self.size = size
        self.start = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.start >= len(self.items):
            raise StopIteration
        chunk = self.items[self.start:self.start + self.size]
        self.start += self.size
        return chunk
