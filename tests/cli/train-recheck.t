A feature no evaluator can compute again: the program reads the monotonic clock before and
after its loop (start, elapsed). Such a value fits a time well in-sample (lz4's timeLength_s
did), and each of its copies (sum, mean, first) used to be chosen, sliced and rejected as not
validated, one round after another. The profile runs the instrumented build a second time on
the three training inputs whose feature run took longest (the recheck runs); training rejects
before slicing exactly the features whose value differs between the two runs of one input.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <time.h>
  > 
  > /* Returns nanoseconds of the monotonic clock. */
  > static long long now_ns(void)
  > {
  > 	struct timespec ts;
  > 
  > 	clock_gettime(CLOCK_MONOTONIC, &ts);
  > 	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
  > }
  > 
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	unsigned char b[4];
  > 	long long start, elapsed;
  > 	unsigned long acc = 5381, n;
  > 
  > 	if (!f || fread(b, 1, sizeof b, f) != sizeof b)
  > 		return 1;
  > 	fclose(f);
  > 	n = b[0] | b[1] << 8 | (unsigned long)b[2] << 16;
  > 	start = now_ns();
  > 	for (unsigned long i = 0; i < n; i++) {
  > 		unsigned long p = (acc ^ i) * 0x9e3779b97f4a7c15ul;
  > 
  > 		acc = acc * 33 + (p ^ p >> 29);
  > 	}
  > 	elapsed = now_ns() - start;
  > 	printf("%lu %s\n", acc, elapsed >= 0 ? "ok" : "the clock went back");
  > 	return 0;
  > }
  > C
  $ cat > gen.py <<'PY'
  > import random, struct, sys
  > seed, n, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
  > rng = random.Random(seed)
  > for i in range(n):
  >     with open("%s%d.bin" % (prefix, i), "wb") as f:
  >         f.write(struct.pack("<I", rng.randint(1000000, 12000000)) + bytes(60))
  >     print("%s%d.bin" % (prefix, i))
  > PY
  $ python3 gen.py 1 12 in > train.txt
  $ mantis train -o pred --inputs train.txt --metric wall --repeat 3 --threshold 0.3 prog.c > log.txt
  $ grep '^recheck:' log.txt
  recheck: 6 features differ between two runs of the instrumented build on one of 3 inputs: rejected before slicing
  $ mantis profile pred/build --status | grep -E '^(runs|recheck):'
  runs: 51 ok, 0 nonzero, 0 crash, 0 timeout
  recheck: 3 inputs run a second time with the instrumented build (training rejects the features that differ)

The decisions: the clock's values and nothing else are rejected as unstable (the loop's count
and n, the same on every run, are not), none of them is ever sliced, and the model reads
neither:

  $ cat > decisions.py <<'PY'
  > import json
  > log = json.load(open("pred/train.json"))
  > model = json.load(open("pred/model.json"))
  > unstable = sorted(d["name"] for d in log["rejected_before_slicing"] if d["reason"].startswith("unstable: "))
  > print("\n".join(unstable))
  > sliced = {d["name"] for it in log["iterations"] for d in it["decisions"]}
  > print(sliced & set(unstable), {f for t in model["terms"] for f in t["powers"]} & set(unstable))
  > PY
  $ python3 decisions.py
  value:main:prog.c:17:elapsed.first
  value:main:prog.c:17:elapsed.mean
  value:main:prog.c:17:elapsed.sum
  value:main:prog.c:17:start.first
  value:main:prog.c:17:start.mean
  value:main:prog.c:17:start.sum
  set() set()

mantis model on the same profile leaves them out too, and says so (the first one named; its two
values are clock readings, different on every run): 99 candidate features of the 105 it read
before: the two clock values it kept as candidates and their four copies (first, mean):

  $ mantis model pred/build --metric wall -o m.json > /dev/null 2> model.err
  $ sed -E 's/ \(input line [0-9]+: [-0-9.e+]+, then [-0-9.e+]+\)$/ (input line L: A, then B)/' model.err
  mantis model: 6 features of pred/build/profile.db left out: their values differed between two runs of the instrumented build on one input (a clock, an address or a random value), such as value:main:prog.c:17:start.sum (input line L: A, then B)
  $ mantis model pred/build --metric wall -o - 2> /dev/null | grep '^features' | sed -E 's/^features +[0-9]+ of/features of/'
  features of 99: 68 constant, 24 copies of others, 0 excluded, 7 kept

A profile asked for no recheck runs has none, and its runs are the feature and timing runs:

  $ mantis instrument -o plain prog.c > /dev/null
  $ mantis profile plain --inputs train.txt --repeat 1 --recheck 0 --quiet | grep -E '^(runs|recheck):'
  runs: 24 ok, 0 nonzero, 0 crash, 0 timeout
  $ mantis profile plain --inputs train.txt --recheck x
  mantis profile: --recheck: 'x' is not a number from 0 to 1000
  See 'mantis help profile'.
  [2]
