A program that interprets a script (an SQL query, a simulation's settings) does the work the
script's numbers ask for: a row count, a number of steps. The numbers of the input's script (its
first text file of at most 64 KiB: the standard input, then the files its arguments name) are
input features too, input:number(K) the K-th, read at no cost: a number is what strtod reads at
a digit that starts a word, so the 2 of "v2" is none. Here the script asks for a number of rows
and a mode, and the program works rows x mode rounds; the script's size tells neither. With a
threshold no evaluator can meet, every program feature is rejected and the model reads the
script:

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <string.h>
  > 
  > int main(void)
  > {
  > 	char line[256], word[32];
  > 	long rows = 0, mode = 1, v;
  > 	unsigned long h = 1;
  > 
  > 	while (fgets(line, sizeof line, stdin)) {
  > 		if (sscanf(line, "%31s %ld", word, &v) != 2)
  > 			continue;
  > 		if (strcmp(word, "rows") == 0)
  > 			rows = v;
  > 		else if (strcmp(word, "mode") == 0)
  > 			mode = v;
  > 	}
  > 	for (long r = 0; r < rows; r++)
  > 		for (long m = 0; m < mode; m++)
  > 			h = h * 33 + (unsigned long)(r ^ m);
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ cat > gen.py <<'PY'
  > import random, sys
  > rng = random.Random(int(sys.argv[1]))
  > for i in range(int(sys.argv[2])):
  >     name = "%s%d.sql" % (sys.argv[3], i)
  >     open(name, "w").write("-- v2 script\nrows %d\nmode %d\n" % (rng.randint(2000, 40000), rng.randint(1, 4)))
  >     print("< " + name)
  > PY
  $ python3 gen.py 1 16 in > train.txt && python3 gen.py 2 6 t > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.0001 prog.c > log.txt
  $ grep -E '^(input features|evaluator):|input:number' log.txt
  input features: 6 vary over the inputs (numeric arguments, file sizes, content, script numbers, words, header fields)
  iteration 2: instructions = 81 + 9 * input:number(1) * input:number(2) + 10 * input:number(1) (train MRE 0.00%)
    input:number(1)                                    accepted: read off the input, no evaluator
    input:number(2)                                    accepted: read off the input, no evaluator
  evaluator: none (the model reads only input features, read off the input)

On held-out scripts the count is predicted exactly; the black box, which sees the sizes alone,
misses by far:

  $ mantis eval pred --inputs test.txt --baselines --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["mre"] < 1e-9, e["baselines"]["blackbox"]["mre"] > 0.3)'
  True True
  $ mantis predict pred --stdin t1.sql | tail -n +3
    input:number(1)                                    7562
    input:number(2)                                    3

A standard input that is no script (binary data) or none has no numbers to read, and no
prediction:

  $ printf 'rows 5\0' > bin.dat
  $ mantis predict pred --stdin bin.dat
  mantis: input:number(1): the input names no script (a text file of at most 64 KiB), and the model reads its numbers; no prediction
  [1]
  $ mantis predict pred
  mantis: input:number(1): the input names no script (a text file of at most 64 KiB), and the model reads its numbers; no prediction
  [1]

mantis export-c reads the same numbers with the same operations, and predicts bit for bit what
mantis predict does; a run with no script gives NAN and ENOENT:

  $ mantis export-c pred -o predict_script.c
  wrote predict_script.c: double script_predict_stdin(int argc, char **argv, const char *input), double script_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=script_predict -DPREDICT_STDIN=script_predict_stdin -o predict "$TESTDIR/data/predict-driver.c" predict_script.c -lm
  $ ./predict '<t0.sql' '<t1.sql' '<t2.sql' '<in5.sql' '<bin.dat' - > mine.txt
  $ for f in t0.sql t1.sql t2.sql in5.sql; do mantis predict pred --json --stdin $f 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ head -4 mine.txt | awk '{print $2}' | diff - theirs.txt
  $ tail -2 mine.txt
  <bin.dat nan No such file or directory
  - nan No such file or directory

The report describes a script's number by what it reads:

  $ mantis report pred -o report.html > /dev/null && grep -c "number 1 of the input&#39;s script" report.html
  1
