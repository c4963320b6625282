Sampled features along a parabola: where a program's work grows as the square of a file's
lines (an insertion sort: each line moves past the lines before it that are greater, so its
steps are the pairs of lines out of order), the line through two samples' counts misses by
most of the count, since a sample of 1% holds a ten-thousandth of the pairs. The parabola
through the two samples and the origin (the line of the count over the sample's share) is
exact for a multiple of the lines plus one of their square. Here each input names one to three
lists of 8,000 to 20,000 numbers, each list sorted, in random order, reversed or with some of
its lines moved: their sizes do not tell the work, and the lists after the first are named on
some inputs only.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > 
  > static long v[200000];
  > 
  > int main(int argc, char **argv)
  > {
  > 	long lines = 0;
  > 	unsigned long h = 0;
  > 
  > 	for (int a = 1; a < argc; a++) {
  > 		FILE *f = fopen(argv[a], "r");
  > 		char line[64];
  > 		int n = 0;
  > 
  > 		if (!f)
  > 			return 1;
  > 		while (n < 200000 && fgets(line, sizeof line, f)) {
  > 			long x = strtol(line, NULL, 10);
  > 			int i = n++;
  > 
  > 			for (int r = 0; r < 600; r++) /* the work a line takes */
  > 				h = h * 31 + (unsigned long)(x + r);
  > 			while (i > 0 && v[i - 1] > x) {
  > 				v[i] = v[i - 1];
  > 				i--;
  > 			}
  > 			v[i] = x;
  > 		}
  > 		fclose(f);
  > 		lines += n;
  > 	}
  > 	printf("%ld %lu\n", lines, h);
  > 	return 0;
  > }
  > C
  $ python3 "$TESTDIR/data/lists.py" 1 16 in 8000 20000 > train.txt
  $ python3 "$TESTDIR/data/lists.py" 2 6 t 8000 20000 > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.5 prog.c > log.txt

The decisions. Every list is sampled: the first word always, the second and third and the last
but one where an input names a file there ("?": an input without one is no error). The ways of
sampling are judged by the instruction count along the parabola, which errs less there than
along the line; and the model reads the sort's steps along the parabola, which errs less than
half as much as the line on the training inputs at the median. The steps are counted alike by
the inner loop's branches (either of its line's two conditions, the second named with "#2"),
its iterations and the assignments to i; which of them the model reads depends on which
evaluator was timed cheaper, so any one of them will do:

  $ cat > decisions.py <<'PY'
  > import json
  > info = json.load(open("pred/predictor.json"))
  > model = json.load(open("pred/model.json"))
  > line = [i for i, l in enumerate(open("prog.c"), 1) if "while (i > 0" in l][0]
  > names = sorted({f for t in model["terms"] for f in t["powers"]})
  > print(info["sampled"]["files"])
  > decl = [i for i, l in enumerate(open("prog.c"), 1) if "int i = n++" in l][0]
  > steps = {"sampled-quadratic:" + f for f in ("branch:main:prog.c:%d:true" % line, "loop:main:prog.c:%d" % line, "value:main:prog.c:%d:i.count" % decl)}
  > quadratic = [n for n in names if n.startswith("sampled-quadratic:")]
  > print(len(quadratic) == 1 and quadratic[0].split("#")[0] in steps or quadratic)
  > trials = json.load(open("pred/train.json"))["sampling"]["trials"]
  > print(all(t["instructions_error"]["parabola"] for t in trials if "instructions_error" in t))
  > PY
  $ python3 decisions.py
  arg1,arg2?,arg3?,arg-1,arg-2?
  True
  True

On six held-out inputs the count is predicted within 6%; the black box, which sees the lists'
sizes, errs by more than half:

  $ mantis eval pred --inputs test.txt --baselines --json 2> /dev/null > eval.json
  $ python3 -c 'import json; e = json.load(open("eval.json")); print(e["n"], e["mre"] < 0.06, e["baselines"]["blackbox"]["mre"] > 0.5)'
  6 True True

A list the first word names must be there; a second list need not be named, but one named and
missing fails the program on its samples:

  $ mantis predict pred -- nothere.txt
  mantis: input file nothere.txt cannot be read (missing): the program would fail on this input; no prediction
  [1]
  $ mantis predict pred -- t0_0.txt nothere.txt 2>&1 | grep -c 'no prediction'
  1

mantis export-c makes the samples as mantis does (the pieces of a text file of whole lines,
a file sampled where it is named) and extrapolates along the parabola, so the exported
function predicts exactly what mantis predict prints:

  $ mantis export-c pred -o predict_lists.c > /dev/null
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=lists_predict -o predict "$TESTDIR/data/predict-driver.c" predict_lists.c
  $ ./predict t0_0.txt t4_0.txt,t4_1.txt | awk '{print $2}' > mine.txt
  $ for args in t0_0.txt 't4_0.txt t4_1.txt'; do mantis predict pred --json -- $args | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ diff mine.txt theirs.txt

A line at a time. Where each list is sorted shards of it concatenated (2 to 12, each line in a
random one), the sort's steps are the pairs of lines in different shards out of order: eight
pieces of a list see a few of its shards and miss the rest, a prefix sees the first, while one
line of every 1/q of the list (a systematic sample, the smaller sample every fourth of those
lines) sees them all. Training tries the three ways on text files and keeps the line at a time,
whose count along the parabola errs a fiftieth of the pieces':

  $ python3 "$TESTDIR/data/lists.py" 3 16 sh 8000 20000 shards > shards.txt
  $ python3 "$TESTDIR/data/lists.py" 4 6 st 8000 20000 shards > shards-test.txt
  $ mantis train -o shards --inputs shards.txt --repeat 1 --metric instructions --threshold 0.5 prog.c | grep -c 'a line at a time'
  4
  $ python3 - <<'PY'
  > import json
  > info = json.load(open("shards/predictor.json"))
  > trials = json.load(open("shards/train.json"))["sampling"]["trials"]
  > err = {c: max(t["instructions_error"]["mean"] for t in trials if t["chunks"] == c) for c in (0, 1, 8)}
  > print(info["sampled"]["chunks"], err[0] < 0.01, err[1] > 0.1, err[8] > 0.1)
  > PY
  0 True True True
  $ mantis eval shards --inputs shards-test.txt --baselines --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["n"], e["mre"] < 0.02, e["baselines"]["blackbox"]["mre"] > 0.1)'
  6 True True

The exported predictor takes the same lines:

  $ mantis export-c shards -o predict_shards.c > /dev/null
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=shards_predict -o predict-shards "$TESTDIR/data/predict-driver.c" predict_shards.c
  $ ./predict-shards st0_0.txt st4_0.txt,st4_1.txt | awk '{print $2}' > mine.txt
  $ for args in st0_0.txt 'st4_0.txt st4_1.txt'; do mantis predict shards --json -- $args | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ diff mine.txt theirs.txt
