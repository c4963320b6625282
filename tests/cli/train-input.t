mantis train offers the model the input features (numeric arguments, file sizes: what the
black box sees) beside the program's, at no cost. Here each byte of the file argv[1] is hashed
argv[2] times; the rounds reach the program only through the inner loop's start, so every
program feature that tells them has to run the loops. With a threshold no evaluator can meet
(0.01% of a run of a few milliseconds), every program feature is rejected and the model reads
the two input features: no evaluator at all.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 2 ? fopen(argv[1], "r") : NULL;
  > 	unsigned long h = 5381;
  > 	int c;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while ((c = getc(f)) != EOF) {
  > 		for (long r = atol(argv[2]); r > 0; r--)
  > 			h = h * 33 + (unsigned long)c;
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ for i in 1 2 3 4 5 6 7 8 9 10; do head -c $((i*1500)) /dev/zero | tr '\0' a > in$i.txt; echo "in$i.txt $(( (i*7)%10*20+40 ))" >> train.txt; done
  $ for i in 1 2 3; do head -c $((i*2300)) /dev/zero | tr '\0' b > t$i.txt; echo "t$i.txt $((i*50+25))" >> test.txt; done
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.0001 prog.c > log.txt
  $ grep -E '^(input features|evaluator):' log.txt
  input features: 3 vary over the inputs (numeric arguments, file sizes)
  evaluator: none (the model reads only input features, read off the command line)
  $ ls pred
  build
  model.json
  predictor.json
  train.json

The decisions: the model reads the rounds and the file's size; both were accepted at no cost,
every program feature the loop looked at was rejected, and predictor.json names no evaluator:

  $ cat > decisions.py <<'PY'
  > import json
  > log = json.load(open("pred/train.json"))
  > model = json.load(open("pred/model.json"))
  > print(sorted({f for t in model["terms"] for f in t["powers"]}))
  > decided = [d for it in log["iterations"] for d in it["decisions"]]
  > print(all(d["accepted"] and d["cost"] == 0 for d in decided if d["name"].startswith("input:")))
  > print(len(decided) > 2, all(not d["accepted"] for d in decided if not d["name"].startswith("input:")))
  > print(json.load(open("pred/predictor.json"))["evaluator"], log["final"]["cost"])
  > PY
  $ python3 decisions.py
  ['input:arg2', 'input:size(arg1)']
  True
  True True
  None 0.0

On held-out inputs (bigger files, rounds outside the training range) the instruction count is
predicted within 1%, as well as the black box does (it sees the same two numbers):

  $ mantis eval pred --inputs test.txt --baselines --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["mre"] < 0.01, e["mre"] <= e["baselines"]["blackbox"]["mre"] + 1e-9)'
  True True
  $ mantis predict pred -- t2.txt 125 2>&1 | tail -n +2
    input:arg2                                         125
    input:size(arg1)                                   4600

A file whose size the model reads must be readable, or there is no prediction (the program
would fail); so must an argument that names it:

  $ mantis predict pred -- nothere.txt 75
  mantis: input file nothere.txt cannot be read (missing): the program would fail on this input; no prediction
  [1]
  $ mantis predict pred -- 
  mantis: input:size(arg1): the input has no such argument, and the model reads the size of the file it names; no prediction
  [1]

mantis export-c computes the same input features from argv (strtod, stat) with no evaluator,
and predicts bit for bit what mantis predict does; a missing file gives NAN and ENOENT:

  $ mantis export-c pred -o predict_rounds.c
  wrote predict_rounds.c: double rounds_predict(int argc, char **argv)
  $ grep -c 'fexecve\|memfd_create' predict_rounds.c
  0
  [1]
  $ cat > main.c <<'C'
  > #include <errno.h>
  > #include <stdio.h>
  > #include <string.h>
  > 
  > double rounds_predict(int argc, char **argv);
  > 
  > int main(int argc, char **argv)
  > {
  > 	double v;
  > 
  > 	errno = 0;
  > 	v = rounds_predict(argc, argv);
  > 	printf("%.17g %s\n", v, errno ? strerror(errno) : "ok");
  > 	return 0;
  > }
  > C
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -o predict main.c predict_rounds.c
  $ for a in 't1.txt 75' 't2.txt 125' 't3.txt 175' 'in4.txt 200'; do printf '%s %s\n' "$(./predict $a | cut -d' ' -f1)" "$(mantis predict pred --json -- $a 2> /dev/null | python3 -c 'import json, sys; print(repr(json.load(sys.stdin)["prediction"]))')"; done | awk '{ print ($1 + 0 == $2 + 0) ? "same" : "differ: " $0 }'
  same
  same
  same
  same
  $ ./predict nothere.txt 75
  nan No such file or directory

The report describes an input feature by what it reads, with no source location:

  $ mantis report pred -o report.html > /dev/null && grep -c 'the command line (no evaluator' report.html
  2

With --no-input-features (the papers' mantis), the same rejections leave nothing to model: the
prediction is the training median.

  $ mantis train -o papers --inputs train.txt --repeat 1 --metric instructions --threshold 0.0001 --no-input-features prog.c | grep -E '^(input features|no feature|evaluator)'
  no feature is left: the prediction is the training median
  evaluator: none (the model reads no feature: every prediction is the same)
  $ python3 -c 'import json; print(json.load(open("papers/model.json"))["terms"])'
  []
