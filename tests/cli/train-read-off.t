A program feature that equals, on every training input, a value the larger sample's run reads
as it is (sampled-larger:) is read there when the model reads sampled features, since the
samples are run for every prediction anyway: no evaluator, and no process start, is spent on it.
Here, as in bzip2, a block size set on the command line decides how a block's sort grows (its
steps grow as the square of the block's length, so the whole file's sorts cost its size times
the block size), and no sample, smaller than every block, shows it; a run of equal bytes costs
by the hash of everything before (as in train-sampled.t), which only the whole run tells, or a
sample. The model needs both: the block size times the file's size, and a sampled count.
(Threshold 50%: the sampled runs, two process starts on runs of some 50 ms, stay under it on a
loaded machine.)

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > 
  > #define NEVER 0x5eed5eed5eed5eedul /* a hash no input reaches: tests that need the whole run */
  > 
  > static unsigned char buf[1024 * 1024];
  > 
  > /* Sorts a block, as far as the time goes: (len / 256)^2 steps, each reading the hash. */
  > static unsigned long sort_block(long len, unsigned long h)
  > {
  > 	for (long i = h == NEVER; i < len; i += 256)
  > 		for (long j = h == NEVER; j < len; j += 256)
  > 			h += buf[(i + j) % len];
  > 	return h;
  > }
  > 
  > /* Hashes f's bytes, a run of equal bytes at a cost, block by block; returns the hash. */
  > static unsigned long compress(FILE *f, long block)
  > {
  > 	unsigned long h = 5381;
  > 	long len = 0;
  > 	int c, prev = -1;
  > 
  > 	while (h != NEVER && (c = getc(f)) != EOF) {
  > 		if (c == prev) {
  > 			for (unsigned long r = h % 16 + 8; r > 0; r--)
  > 				h = h * 33 + (unsigned long)c;
  > 		} else {
  > 			h ^= (unsigned long)c;
  > 		}
  > 		prev = c;
  > 		buf[len++] = (unsigned char)c;
  > 		if (len == block) {
  > 			h = sort_block(len, h);
  > 			len = 0;
  > 		}
  > 	}
  > 	return sort_block(len, h);
  > }
  > 
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 2 ? fopen(argv[1], "rb") : NULL;
  > 	long kib = argc > 2 ? atol(argv[2]) : 0;
  > 
  > 	if (!f || kib < 1 || kib > 1024)
  > 		return 1;
  > 	printf("%lu\n", compress(f, kib * 1024));
  > 	fclose(f);
  > 	return 0;
  > }
  > C
  $ python3 "$TESTDIR/data/runs.py" 1 16 in 1500000 3000000 320 448 640 896 > train.txt
  $ python3 "$TESTDIR/data/runs.py" 2 6 t 1500000 3000000 320 448 640 896 > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.5 prog.c > log.txt

The block size, a parameter of compress() whose sum over its one call the fit took, is the
mean on the larger sample, and the model reads that: the program's feature is its alias, the
predictor has no evaluator, and the sampled evaluator, validated on every training input's
samples, computes it with the sampled counts:

  $ grep 'is read off the larger sample' log.txt | sort -u
  evaluator: value:compress:prog.c:18:block.sum is read off the larger sample: it is 1 * sampled-larger:value:compress:prog.c:18:block.mean on every training input
  $ cat > decisions.py <<'PY'
  > import json
  > info = json.load(open("pred/predictor.json"))
  > model = json.load(open("pred/model.json"))
  > log = json.load(open("pred/train.json"))
  > block = [f for f in model["features"] if f["name"].endswith(":block.mean")]
  > print(info["evaluator"], info["sampled"]["program"], log["sampling"]["evaluator"]["kept"])
  > print([f["name"] for f in block], [a["name"] for a in block[0]["aliases"] if a["name"] == "value:compress:prog.c:18:block.sum"])
  > print(all(f["name"].startswith(("sampled:", "sampled-larger:", "input:")) for f in model["features"]))
  > print(any(f["name"].startswith("sampled:") for f in model["features"]))
  > print(log["final"]["cost"] == log["sampling"]["cost"] == info["cost"])
  > PY
  $ python3 decisions.py
  None sampled-evaluator True
  ['sampled-larger:value:compress:prog.c:18:block.mean'] ['value:compress:prog.c:18:block.sum']
  True
  True
  True

A prediction reads the block size off the larger sample, 640 KiB as the command line says, and
on six held-out files the count is predicted within 3% (the input features alone, the file's
size and content and the block size, err twice as much in cross-validation: 12% or more with
the size alone, 2.7% with the content):

  $ mantis predict pred -- t1.bin 640 | grep 'block.mean'
    sampled-larger:value:compress:prog.c:18:block.mean 655360
  $ mantis eval pred --inputs test.txt --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["mre"] < 0.03)'
  True
  $ python3 -c 'import json; c = json.load(open("pred/train.json"))["choice"]["candidates"]; best = lambda k: min(x["cv"] for x in c if x["features"] == k); print(best("input") > 1.5 * best("program"))'
  True
