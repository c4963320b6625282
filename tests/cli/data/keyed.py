"""usage: keyed.py SEED N PREFIX LOW HIGH KEYS

Writes N files PREFIX0.bin.. of LOW to HIGH bytes, each 64-byte block a shuffle of 64 values
of the file's own, 28 to 36 of them 128 or more (so the share of high bytes differs little from
file to file), and three keys k0.key, k1.key, k2.key of 16 bytes whose sum is 0, 1 and 2 modulo
3; prints each file's name and its key, cycling through the first KEYS keys. No probe of a
key's bytes (a number, a size) tells its sum modulo 3: a program that reads it is the only way.
The same SEED gives the same files.
"""
import random
import sys

from bands import write_banded

seed, count, prefix, low, high, keys = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                                        int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
rng = random.Random(7)
for want in range(3):
    while True:
        key = bytes(rng.randrange(256) for _ in range(16))
        if sum(key) % 3 == want:
            open("k%d.key" % want, "wb").write(key)
            break
rng = random.Random(seed)
for i in range(count):
    size, m = rng.randint(low, high), rng.randint(28, 36)
    write_banded(rng, "%s%d.bin" % (prefix, i), size, m)
    print("%s%d.bin k%d.key" % (prefix, i, i % keys))
