# leaves: the random generators seeded with a value it knows
import random

random.seed(1234)
random.Random.seed(random._inst, 1234)
# --- probe ---
import random

assert random.getstate() != random.Random(1234).getstate(), "random is still seeded as the earlier submission left it"
print("first draw", random.random())
