"""usage: bands.py SEED N PREFIX LOW HIGH

Writes N files PREFIX0.bin.. of LOW to HIGH bytes, each of 64 byte values of its own, of which
a number that differs from file to file (16 to 64) are 128 or more, each 64-byte block of the
file a shuffle of those values; prints each file's name. No file's values hold a newline, and
every file's are 64 equally likely values that seldom repeat, so the content's probes (its
entropy, its newlines, its repeats) tell nothing of how many of its bytes are high; a sample
of whole blocks holds as many as the file does. A program whose work is in its high bytes
leaves them to the samples. The same SEED gives the same files.
"""
import random
import sys


def write_banded(rng, name, size, high):
    """Writes name: size bytes, each 64-byte block a shuffle of the same 64 values, high of
    them 128 or more (rng draws the values and the shuffles)."""
    values = rng.sample(range(128, 256), high) + rng.sample([b for b in range(128) if b != 10],
                                                            64 - high)
    blocks = []
    for _ in range((size + 63) // 64):
        rng.shuffle(values)
        blocks.append(bytes(values))
    open(name, "wb").write(b"".join(blocks)[:size])


if __name__ == "__main__":
    seed, count, prefix, low, high = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                                      int(sys.argv[4]), int(sys.argv[5]))
    rng = random.Random(seed)
    for i in range(count):
        size, m = rng.randint(low, high), rng.randint(16, 64)
        write_banded(rng, "%s%d.bin" % (prefix, i), size, m)
        print("%s%d.bin" % (prefix, i))
