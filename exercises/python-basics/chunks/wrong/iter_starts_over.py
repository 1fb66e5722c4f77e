# Wrong: __iter__ starts over from the first item, so an iterator that was started is read again from its start.
class Chunks:
    def __init__(self, items, size):
        if size < 1:
            raise ValueError("size must be at least 1")
        self.items = list(items)
        self.size = size
        self.start = 0

    def __iter__(self):
        self.start = 0
        return self

    def __next__(self):
        if self.start >= len(self.items):
            raise StopIteration
        chunk = self.items[self.start:self.start + self.size]
        self.start += self.size
        return chunk
