"""usage: runs.py SEED N PREFIX LOW HIGH [WORD...]

Writes N files PREFIX0.bin.. of LOW to HIGH bytes, each made of runs of one byte whose lengths
are geometric with a mean that differs from file to file (so a file's size does not tell how
much of it repeats), and prints an input line per file: its name, then one of the WORDs (chosen
by the same generator) when any are given. The same SEED gives the same files.
"""
import math
import random
import sys

seed, count, prefix, low, high = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
words = sys.argv[6:]
rng = random.Random(seed)
for i in range(count):
    size, p = rng.randint(low, high), rng.uniform(0.3, 0.97)
    runs, n = [], 0
    while n < size:
        length = 1 + int(math.log(1 - rng.random()) / math.log(p))
        runs.append(bytes([rng.randrange(256)]) * length)
        n += length
    open("%s%d.bin" % (prefix, i), "wb").write(b"".join(runs)[:size])
    print("%s%d.bin%s" % (prefix, i, " " + rng.choice(words) if words else ""))
