What the input's content is like is an input feature too: read off 64 KiB of its largest file
(16 pieces of 4 KiB spread over it, the whole of a smaller file), the bits a byte carries
(input:entropy(data)), the share of its 4-byte strings seen shortly before
(input:repeats(data)) and its newlines a byte (input:newlines(data)), at no cost. Here a line
costs the program 300 rounds more than any other byte: its count is the file's size times a
line's share of it, which no size tells and no argument. With a threshold no evaluator can meet,
every program feature is rejected and the model reads the content:

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  > 	unsigned long h = 5381;
  > 	int c;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while ((c = getc(f)) != EOF) {
  > 		h = h * 33 + (unsigned long)c;
  > 		if (c == '\n')
  > 			for (int r = 0; r < 300; r++)
  > 				h = h * 31 + (unsigned long)r;
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
  >     size, line = rng.randint(10000, 60000), rng.randint(20, 200)
  >     open("%s%d.txt" % (sys.argv[3], i), "w").write(("x" * (line - 1) + "\n") * (size // line))
  >     print("%s%d.txt" % (sys.argv[3], i))
  > PY
  $ python3 gen.py 1 12 in > train.txt && python3 gen.py 2 4 t > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.0001 prog.c > log.txt
  $ grep -E '^(input features|evaluator):' log.txt
  input features: 5 vary over the inputs (numeric arguments, file sizes, content, script numbers, words, header fields)
  evaluator: none (the model reads only input features, read off the input)
  $ python3 -c 'import json; m = json.load(open("pred/model.json")); print(sorted({f for t in m["terms"] for f in t["powers"]}))'
  ['input:newlines(data)', 'input:size(arg1)']

On held-out files the count is predicted exactly (the files are smaller than the probe's 64
KiB); the black box, which sees the sizes alone, misses by far:

  $ mantis eval pred --inputs test.txt --baselines --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["mre"] < 1e-9, e["baselines"]["blackbox"]["mre"] > 0.1)'
  True True
  $ mantis predict pred -- t1.txt 2>&1 | tail -n +3
    input:size(arg1)                                   15456
    input:newlines(data)                               0.0089285714285714281

A missing file has neither size nor content, and no prediction:

  $ mantis predict pred -- 7
  mantis: input file 7 cannot be read (missing): the program would fail on this input; no prediction
  [1]

mantis export-c probes the same bytes with the same operations, and predicts bit for bit what
mantis predict does; a missing file gives NAN and ENOENT:

  $ mantis export-c pred -o predict_lines.c
  wrote predict_lines.c: double lines_predict_stdin(int argc, char **argv, const char *input), double lines_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=lines_predict -o predict "$TESTDIR/data/predict-driver.c" predict_lines.c -lm
  $ ./predict t0.txt t1.txt t2.txt t3.txt in5.txt 7 > mine.txt
  $ for a in t0.txt t1.txt t2.txt t3.txt in5.txt; do mantis predict pred --json -- $a 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ head -5 mine.txt | awk '{print $2}' | diff - theirs.txt
  $ tail -1 mine.txt
  7 nan No such file or directory

The report describes a content feature by what it reads:

  $ mantis report pred -o report.html > /dev/null && grep -c 'newlines per byte in the input' report.html
  1
