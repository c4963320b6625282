A table that grows by doubling copies its items at every power of two, so its cost an item is
a sawtooth in log2 of their number: here a program appends the n items its script names
(`n = N`) to an array that doubles when full, 2 to 3 copies an item by where n lies between
two powers of two. The training inputs nearest in n lie elsewhere between theirs; the rate's
phase of n (the cosine and the sine of 2 pi log2 n, mantis help model) finds those at the
same place:

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  > 	long n, cap = 1, len = 0;
  > 	unsigned long h = 0, *t, *u;
  > 
  > 	if (!f || fscanf(f, "n = %ld", &n) != 1 || n < 1)
  > 		return 1;
  > 	fclose(f);
  > 	t = malloc(sizeof *t);
  > 	for (long i = 0; i < n; i++) {
  > 		if (len == cap) {
  > 			u = malloc(2 * (size_t)cap * sizeof *u);
  > 			for (long j = 0; j < len; j++)
  > 				u[j] = t[j];
  > 			free(t);
  > 			t = u;
  > 			cap *= 2;
  > 		}
  > 		t[len++] = (unsigned long)i * 2654435761u;
  > 	}
  > 	for (long i = 0; i < len; i += 97)
  > 		h ^= t[i];
  > 	printf("%lu\n", h);
  > 	free(t);
  > 	return 0;
  > }
  > C
  $ cat > gen.py <<'PY'
  > import random, sys
  > rng = random.Random(int(sys.argv[1]))
  > for i in range(int(sys.argv[2])):
  >     name = "%s%d.txt" % (sys.argv[3], i)
  >     open(name, "w").write("n = %d\n" % int(1024 * 128 ** rng.random()))
  >     print(name)
  > PY
  $ python3 gen.py 1 48 in > train.txt && python3 gen.py 2 16 t > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.0001 prog.c > log.txt
  $ grep -E '^choice:' log.txt | tail -1
  choice: the input features' rate (nearest training inputs) (no evaluator)
  $ python3 -c 'import json; r = json.load(open("pred/model.json"))["rate"]; print(r["scale"], sorted(set(a["name"] + " " + a.get("phase", "-") for a in r["axes"] if "phase" in a)))'
  input:number(1) ['input:number(1) cos', 'input:number(1) sin']
  $ mantis report pred -o report.html > /dev/null && grep -o 'cos2pi log2 <a href="#feature-[0-9]*">input:number(1)' report.html | head -1
  cos2pi log2 <a href="#feature-1">input:number(1)

On the held-out scripts the count is predicted within 1%; the same model without the phase's
axes errs by more than 3%:

  $ mantis eval pred --inputs test.txt --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["mre"] < 0.01)'
  True
  $ cp -r pred flat && python3 - <<'PY'
  > import json
  > m = json.load(open("flat/model.json"))
  > r = m["rate"]
  > keep = [j for j, a in enumerate(r["axes"]) if "phase" not in a]
  > r["axes"] = [r["axes"][j] for j in keep]
  > r["points"] = [[p[j] for j in keep] for p in r["points"]]
  > json.dump(m, open("flat/model.json", "w"))
  > PY
  $ mantis eval flat --inputs test.txt --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["mre"] > 0.03)'
  True

mantis export-c computes the phase as mantis predict does, and predicts bit for bit the same:

  $ mantis export-c pred -o predict_phased.c
  wrote predict_phased.c: double phased_predict_stdin(int argc, char **argv, const char *input), double phased_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=phased_predict -o predict "$TESTDIR/data/predict-driver.c" predict_phased.c -lm
  $ ./predict t0.txt t1.txt t2.txt t3.txt t4.txt t5.txt t6.txt t7.txt > mine.txt
  $ for a in t0.txt t1.txt t2.txt t3.txt t4.txt t5.txt t6.txt t7.txt; do mantis predict pred --json -- $a 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ awk '{print $2}' mine.txt | diff - theirs.txt
