A program's work is often its input's size times a cost per byte that its options and data
set by a table, not by a curve: here each byte of the file argv[1] costs 5, 60, 10, 90, 2 or 40
rounds by the mode argv[2], three times that with the flag -e. No polynomial of low degree in
the mode holds that table; the rate of the training inputs of the same mode and flag does (the
flag is an input feature too: input:word(-e), 1 where it is an argument). With a threshold no
evaluator can meet, the final choice weighs the input features alone, as polynomials of degree
1 to 3 and as a rate (the file's size times the rate, count over size, of the training inputs
nearest in the features cross-validation chose), and takes the rate:

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > #include <string.h>
  > int main(int argc, char **argv)
  > {
  > 	static const int rounds[6] = {5, 60, 10, 90, 2, 40};
  > 	FILE *f = argc > 2 ? fopen(argv[1], "r") : NULL;
  > 	int mode = argc > 2 ? atoi(argv[2]) : -1, times = argc > 3 && !strcmp(argv[3], "-e") ? 3 : 1;
  > 	unsigned long h = 5381;
  > 	int c;
  > 
  > 	if (!f || mode < 0 || mode > 5)
  > 		return 1;
  > 	while ((c = getc(f)) != EOF) {
  > 		for (int r = 0; r < rounds[mode] * times; r++)
  > 			h = h * 33 + (unsigned long)c;
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ cat > gen.py <<'PY'
  > import random, sys
  > rng = random.Random(int(sys.argv[1]))
  > for i in range(int(sys.argv[2])):
  >     name = "%s%d.txt" % (sys.argv[3], i)
  >     open(name, "w").write("x" * rng.randint(5000, 50000))
  >     print(name, i % 6, "-e" if i // 6 % 2 else "")
  > PY
  $ python3 gen.py 1 60 in > train.txt && python3 gen.py 2 12 t > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.0001 prog.c > log.txt
  $ grep -E '^(choice|evaluator|model):' log.txt | sed -E '/cross-validated/ s/ [(][^)]*[)]$//; s/[0-9]+[.][0-9]+%/P/'
  evaluator: none (the model reads only input features, read off the input)
  choice: the input features alone, degree 1: cross-validated error P
  choice: the input features alone, degree 2: cross-validated error P
  choice: the input features alone, degree 3: cross-validated error P
  choice: the input features' rate (nearest training inputs): cross-validated error P
  choice: the input features' rate (nearest training inputs) (no evaluator)

The decisions: every polynomial errs by more than half under cross-validation, the rate by
less than 0.01%; the rate scales by the file's size and measures nearness in the mode and the
flag:

  $ python3 -c 'import json; c = json.load(open("pred/train.json"))["choice"]; print(c["chosen"], [(x["features"], x["cv"] > 0.5) for x in c["candidates"]], min(x["cv"] for x in c["candidates"]) < 1e-4)'
  rate [('input', True), ('input', True), ('input', True), ('rate', False)] True
  $ python3 -c 'import json; r = json.load(open("pred/model.json"))["rate"]; print(r["scale"], sorted(a["name"] for a in r["axes"]), r["k"], len(r["points"]))'
  input:size(arg1) ['input:arg2', 'input:word(-e)'] 1 60

On held-out files the count is predicted within 0.01%; the black box, a polynomial of the
sizes alone, misses by far. A mode outside the training range gets the rate of the nearest one,
with a warning:

  $ mantis eval pred --inputs test.txt --baselines --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["mre"] < 1e-4, e["baselines"]["blackbox"]["mre"] > 0.3, e["interval_coverage"] >= 11 / 12)'
  True True True
  $ mantis predict pred -- t3.txt 9 -e 2>&1 > /dev/null
  mantis predict: warning: input:arg2 = 9 is outside its training range [0, 5]: the rate is that of the training inputs nearest, times the scale

mantis export-c writes the training inputs' coordinates and rates out and predicts bit for bit
what mantis predict does; a missing file gives NAN and ENOENT:

  $ mantis export-c pred -o predict_modes.c
  wrote predict_modes.c: double modes_predict_stdin(int argc, char **argv, const char *input), double modes_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=modes_predict -o predict "$TESTDIR/data/predict-driver.c" predict_modes.c -lm
  $ ./predict t0.txt,0 t1.txt,1,-e t2.txt,2 t3.txt,3,-e t4.txt,4 t5.txt,9 7,1 > mine.txt
  $ for a in "t0.txt 0" "t1.txt 1 -e" "t2.txt 2" "t3.txt 3 -e" "t4.txt 4" "t5.txt 9"; do mantis predict pred --json -- $a 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ head -6 mine.txt | awk '{print $2}' | diff - theirs.txt
  $ tail -1 mine.txt
  7,1 nan No such file or directory

A base under the rate (the log rate as a sum of a line through some axes' knots, the nearest
inputs' residuals added; none is chosen here, where the nearest rates are exact) is written out
too: with one set by hand on the first axis, the export predicts bit for bit what mantis
predict does, which is not what it did without it:

  $ cp -r pred based
  $ python3 -c 'import json; m = json.load(open("based/model.json")); a = m["rate"]["axes"][0]; a["knots"], a["effects"] = [-1, 0, 0.5, 2], [0.3, -0.2, 0.1, 0.4]; json.dump(m, open("based/model.json", "w"))'
  $ mantis export-c based -o predict_based.c --name based > /dev/null
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=based_predict -o bpredict "$TESTDIR/data/predict-driver.c" predict_based.c -lm
  $ ./bpredict t0.txt,0 t1.txt,1,-e t2.txt,2 t3.txt,3,-e t4.txt,4 t5.txt,9 | awk '{print $2}' > mine.txt
  $ for a in "t0.txt 0" "t1.txt 1 -e" "t2.txt 2" "t3.txt 3 -e" "t4.txt 4" "t5.txt 9"; do mantis predict based --json -- $a 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done | tee based.txt | diff - mine.txt
  $ diff -q based.txt theirs.txt > /dev/null
  [1]
  $ grep -o -m 1 'the residuals of a base in [^)]*' predict_based.c
  the residuals of a base in input:arg2 (4 knots
  $ mantis report based -o based.html > /dev/null && grep -o 'residuals under a base, [^:]*: <code>input:arg2</code> (4 knots)' based.html
  residuals under a base, a sum of a line through some features' knots (it reads a combination of them no training input had), which is added at the input: <code>input:arg2</code> (4 knots)

The report states the rate and what it reads:

  $ mantis report pred -o report.html > /dev/null && grep -c '1 when &quot;-e&quot; is one of the arguments, else 0' report.html
  1
