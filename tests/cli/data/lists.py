"""usage: lists.py SEED N PREFIX LOW HIGH [ORDER]

Writes, for each of N inputs, one to three lists PREFIXi_k.txt of LOW to HIGH lines (a number
of 9 digits and a newline each), each in its own order: sorted, in random order, reversed,
or sorted with a random share of its lines moved to random places, and prints an input line per
input naming its lists (the first always, the others on some inputs only). An insertion sort's
steps on a list are the pairs of its lines out of order: from none to half the square of its
lines, so that the lists' sizes do not tell the work. With ORDER "shards", every list is 2 to 12
sorted shards of it concatenated (each line in a random one): a few pieces of a list then see
a few shards, where a line at a time sees them all. The same SEED gives the same files.
"""
import random
import sys

seed, count, prefix, low, high = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
only = sys.argv[6] if len(sys.argv) > 6 else None
rng = random.Random(seed)
for i in range(count):
    names = []
    for k in range(rng.choice((1, 1, 2, 3))):
        n = rng.randint(low, high)
        v = sorted(rng.randrange(10 ** 9) for _ in range(n))
        order = only or rng.choice(("sorted", "random", "reversed", "moved"))
        if order == "shards":
            b = rng.randint(2, 12)
            shard = [rng.randrange(b) for _ in v]
            v = [x for r in range(b) for x, s in zip(v, shard) if s == r]
        elif order == "random":
            rng.shuffle(v)
        elif order == "reversed":
            v.reverse()
        elif order == "moved":
            for _ in range(int(n * rng.uniform(0.01, 0.3))):
                v.insert(rng.randrange(n), v.pop(rng.randrange(n)))
        name = "%s%d_%d.txt" % (prefix, i, k)
        open(name, "w").write("".join("%09d\n" % x for x in v))
        names.append(name)
    print(" ".join(names))
