A time may go through the program's instruction count: the instructions a unit read off the
training inputs nearest in some features, times the time an instruction read off those nearest
in others (mantis help train). The count is exact, so a sawtooth in it (a table that doubles)
is plain there, where the time's noise hides it; the time an instruction is smooth in the
size. Here a program appends the n items its script names to an array that doubles, then
reads it in a scattered order (its time an instruction rising as the array outgrows the
caches):

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
  > 	for (long i = 0, j = 0; i < len; i++, j = (j + 40503) % len)
  > 		h ^= t[j];
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
  >     open(name, "w").write("n = %d\n" % int(16384 * 128 ** rng.random()))
  >     print(name)
  > PY
  $ python3 gen.py 1 32 in > train.txt && python3 gen.py 2 8 t > test.txt

Trained on the time, the final choice weighs the input features' rate through the instruction
count beside the rate of the time at once (which one it takes, the noise of the runs decides);
on the instruction count itself there is nothing to go through:

  $ mantis train -o timed --inputs train.txt --metric wall --threshold 0.0001 prog.c > timed.txt
  $ grep -c "^choice: the input features' rate through the instruction count (nearest training inputs): cross-validated error" timed.txt
  1
  $ python3 -c 'import json; print(sorted(c["features"] for c in json.load(open("timed/train.json"))["choice"]["candidates"] if c["features"].startswith("rate")))'
  ['rate', 'rate-instructions']
  $ mantis report timed -o timed.html > /dev/null && grep -o "<tr><td>the input features' rate[a-z ]*</td>" timed.html
  <tr><td>the input features' rate through the instruction count</td>
  <tr><td>the input features' rate</td>
  $ mantis train -o counted --inputs train.txt --repeat 1 --metric instructions --threshold 0.0001 prog.c > counted.txt
  $ grep -c "through the instruction count" counted.txt
  0
  [1]

A model through the count predicts the instructions' rate times the time an instruction's:
with a time an instruction of e^-20 s on every training input, each prediction is the
instruction count's times e^-20; mantis export-c computes it as mantis predict does, bit for
bit:

  $ cp -r counted through && python3 - <<'PY'
  > import json
  > m = json.load(open("through/model.json"))
  > r = m["rate"]
  > r["per_count"] = {"k": 1, "axes": [], "points": [[] for p in r["points"]],
  >                   "log_rates": [-20.0 for p in r["points"]]}
  > json.dump(m, open("through/model.json", "w"))
  > PY
  $ python3 - <<'PY'
  > import json, math, subprocess
  > def predict(pred, a):
  >     out = subprocess.run(["mantis", "predict", pred, "--json", "--", a], capture_output=True, text=True).stdout
  >     return json.loads(out)["prediction"]
  > print(all(abs(predict("through", a) / (predict("counted", a) * math.exp(-20)) - 1) < 1e-12
  >           for a in ["t0.txt", "t1.txt", "t2.txt", "t3.txt"]))
  > PY
  True
  $ mantis export-c through -o predict_through.c
  wrote predict_through.c: double through_predict_stdin(int argc, char **argv, const char *input), double through_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=through_predict -o predict "$TESTDIR/data/predict-driver.c" predict_through.c -lm
  $ ./predict t0.txt t1.txt t2.txt t3.txt t4.txt t5.txt t6.txt t7.txt > mine.txt
  $ for a in t0.txt t1.txt t2.txt t3.txt t4.txt t5.txt t6.txt t7.txt; do mantis predict through --json -- $a 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ awk '{print $2}' mine.txt | diff - theirs.txt
  $ mantis report through -o report.html > /dev/null && grep -o 'The rate of the metric an instruction' report.html
  The rate of the metric an instruction

A rate of a time is bagged (mantis help model): its log rate is the mean of the choice made on
every training input and 16 more, each made on a bootstrap of them, as which near-tied features
a noisy time picks is itself noise; the exact count's is not. Which model the timed train
writes, the noise decides (on a quiet host the script's number, linearly, is within a standard
error of the rate), so the rate of its profile's times is made by mantis model and put in a
copy of it; mantis export-c computes it as mantis predict does, bit for bit, and the report
says so:

  $ mantis export timed/build > timed.csv
  $ python3 - <<'PY'
  > import csv
  > with open("bag.csv", "w") as f:
  >     f.write("input,input:number(1),wall\n")
  >     for r in csv.DictReader(open("timed.csv")):
  >         f.write("%s,%s,%s\n" % (r["input"], open(r["input"]).read().split("=")[1].strip(), r["wall"]))
  > PY
  $ mantis model bag.csv --algo rate --train-frac 1 -o bag.json > /dev/null
  $ cp -r timed bagged && cp bag.json bagged/model.json
  $ python3 -c 'import json; r = json.load(open("bagged/model.json"))["rate"]; print(len(r["bag"]))'
  16
  $ grep -c '"bag"' counted/model.json
  0
  [1]
  $ mantis export-c bagged -o predict_bagged.c > /dev/null
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=bagged_predict -o predict3 "$TESTDIR/data/predict-driver.c" predict_bagged.c -lm
  $ ./predict3 t0.txt t1.txt t2.txt t3.txt t4.txt t5.txt t6.txt t7.txt > mine.txt
  $ for a in t0.txt t1.txt t2.txt t3.txt t4.txt t5.txt t6.txt t7.txt; do mantis predict bagged --json -- $a 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ awk '{print $2}' mine.txt | diff - theirs.txt
  $ mantis report bagged -o bagged.html > /dev/null && grep -o 'averaged with those of 16 other choices' bagged.html
  averaged with those of 16 other choices

Read off the same training inputs, the bag's rates leave their log rates (and their points,
where each axis is one of the owner's) to the owner's, written once:

  $ python3 -c 'import json; r = json.load(open("bagged/model.json"))["rate"]; print(sum("log_rates" in b for b in r["bag"]))'
  0

A polynomial of the program's features may go through the count too (its terms of the
instructions, times the time an instruction of the training inputs nearest in input features:
a top-level "per_count" in model.json). With a polynomial 1000 + 3 n of the script's number n
and a time an instruction of e^-20 s, each prediction is (1000 + 3 n) e^-20, and mantis
export-c computes it as mantis predict does, bit for bit:

  $ cp -r timed polynomial && python3 - <<'PY'
  > import json
  > m = json.load(open("polynomial/model.json"))
  > n = [f for f in m["features"] if f["name"] == "input:number(1)"][0]
  > p = {"algorithm": "spore-foba", "metric": "wall", "fit": "relative", "degree": 1,
  >      "cv_folds": 0, "intercept": 1000.0, "terms": [{"coef": 3.0, "powers": {"input:number(1)": 1}}],
  >      "features": [n], "n_train": 32, "n_test": 0, "train_mre": None, "test_mre": None,
  >      "per_count": {"scale": "input:number(1)", "k": 1, "axes": [], "points": [[], []],
  >                    "log_rates": [-20.0, -20.0]}}
  > json.dump(p, open("polynomial/model.json", "w"))
  > PY
  $ python3 - <<'PY'
  > import json, math, subprocess
  > def predict(a):
  >     out = subprocess.run(["mantis", "predict", "polynomial", "--json", "--", a], capture_output=True, text=True).stdout
  >     return json.loads(out)["prediction"]
  > def n(a):
  >     return int(open(a).read().split()[2])
  > print(all(abs(predict(a) / ((1000 + 3 * n(a)) * math.exp(-20)) - 1) < 1e-12
  >           for a in ["t0.txt", "t1.txt", "t2.txt", "t3.txt"]))
  > PY
  True
  $ mantis export-c polynomial -o predict_polynomial.c > /dev/null
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=polynomial_predict -o predict2 "$TESTDIR/data/predict-driver.c" predict_polynomial.c -lm
  $ ./predict2 t0.txt t1.txt t2.txt t3.txt t4.txt t5.txt t6.txt t7.txt > mine.txt
  $ for a in t0.txt t1.txt t2.txt t3.txt t4.txt t5.txt t6.txt t7.txt; do mantis predict polynomial --json -- $a 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ awk '{print $2}' mine.txt | diff - theirs.txt
  $ mantis report polynomial -o polynomial.html > /dev/null && grep -o 'wall = ([^<]*' polynomial.html
  wall = (1000 + 3 &times; 
  $ grep -c 'The rate of the metric an instruction' polynomial.html
  1

Trained on the time of a program whose work no input feature tells (each number of its file
is hashed until the hash hits a mark), the program's features are weighed through the count
too, after those at once:

  $ cat > hash.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  > 	unsigned long x, h, work = 0;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while (fscanf(f, "%lu", &x) == 1) {
  > 		h = x;
  > 		do {
  > 			h = h * 6364136223846793005UL + 1442695040888963407UL;
  > 			work++;
  > 		} while ((h >> 40) % 100000 != 7);
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", work);
  > 	return 0;
  > }
  > C
  $ for i in 1 2 3 4 5 6 7 8 9 10; do seq $((i*1000+1)) $((i*1000+i*3)) > h$i.txt; echo "h$i.txt" >> hash.txt; done
  $ mantis train -o hash --inputs hash.txt --metric wall --threshold 3 hash.c > hash.log
  $ python3 -c 'import json; print([(c["features"], c["degree"]) for c in json.load(open("hash/train.json"))["choice"]["candidates"] if c["features"].startswith("program")])'
  [('program', 1), ('program', 2), ('program', 3), ('program-instructions', 1), ('program-instructions', 2), ('program-instructions', 3)]
  $ grep -c "^choice: the program's features through the instruction count, degree [123]: cross-validated error" hash.log
  3
