# Wrong: stops before a last chunk that is shorter than size, so the last items are lost.
class Chunks:
    def __init__(self, items, size):
        if size < 1:
            raise ValueError("size must be at least 1")
        self.items = list(items)
        self.size = size
        self.start = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.start + self.size > len(self.items):
            raise StopIteration
        chunk = self.items[self.start:self.start + self.size]
        self.start += self.size
        return chunk
