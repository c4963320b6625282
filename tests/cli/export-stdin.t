mantis export-c for a program that reads its standard input (as gzip, bzip2 and xz do when a
scheduler pipes a file in): the exported NAME_predict_stdin(argc, argv, input) predicts what
mantis predict --stdin INPUT prints, bit for bit, and NAME_predict(argc, argv) what it prints
with no --stdin. First the work is in the content (each byte equal to the one before starts a
loop whose length depends on the hash of everything before, as in train-sampled.t): the model
reads sampled features of the standard input, and the exported function samples input as
mantis does and gives each sample to the sampled program as its standard input:

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > int main(void)
  > {
  > 	unsigned long h = 5381;
  > 	int c, prev = -1;
  > 
  > 	while ((c = getchar()) != EOF) {
  > 		if (h != 0x5eed5eed5eed5eedul && c == prev) { /* h first: the test needs the run */
  > 			for (unsigned long r = h % 64 + 32; r > 0; r--)
  > 				h = h * 33 + (unsigned long)c;
  > 		} else {
  > 			h ^= (unsigned long)c;
  > 		}
  > 		prev = c;
  > 	}
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ python3 "$TESTDIR/data/runs.py" 1 12 in 600000 1800000 | sed 's/^/< /' > train.txt
  $ python3 "$TESTDIR/data/runs.py" 2 3 t 600000 1800000 > /dev/null
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.5 prog.c > /dev/null
  $ python3 -c 'import json; m = json.load(open("pred/model.json")); s = json.load(open("pred/predictor.json"))["sampled"]; print(s["files"], any(f.startswith("sampled") for t in m["terms"] for f in t["powers"]))'
  stdin True
  $ mantis export-c pred -o predict_runs.c
  wrote predict_runs.c: double runs_predict_stdin(int argc, char **argv, const char *input), double runs_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=runs_predict -DPREDICT_STDIN=runs_predict_stdin -o predict "$TESTDIR/data/predict-driver.c" predict_runs.c
  $ ./predict '<t0.bin' '<t2.bin' '<nothere.bin' '<.' - > mine.txt
  $ for f in t0.bin t2.bin; do mantis predict pred --json --stdin $f | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ head -2 mine.txt | awk '{print $2}' | diff - theirs.txt
  $ tail -3 mine.txt
  <nothere.bin nan No such file or directory
  <. nan Is a directory
  - nan No such file or directory
  $ mantis predict pred --stdin nothere.bin
  mantis: cannot read the input's stdin nothere.bin: No such file or directory
  [1]
  $ mantis predict pred
  mantis: the input has no stdin, whose samples the model reads; no prediction
  [1]

Where the work is the input's size (a checksum of every byte), the exact count costs the whole
run and is rejected; the model is the standard input's size, which the exported function reads
off input with stat, and with no standard input (NAME_predict) its size is 0, as mantis
predict has it with no --stdin:

  $ cat > sum.c <<'C'
  > #include <stdio.h>
  > int main(void)
  > {
  > 	unsigned long h = 5381;
  > 	int c;
  > 
  > 	while ((c = getchar()) != EOF)
  > 		h = h * 33 + (unsigned long)c;
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ mantis train -o sumpred --inputs train.txt --repeat 1 --metric instructions --sample 0 sum.c > /dev/null
  $ python3 -c 'import json; m = json.load(open("sumpred/model.json")); print(sorted({f for t in m["terms"] for f in t["powers"]}))'
  ['input:size(stdin)']
  $ mantis export-c sumpred -o predict_sum.c
  wrote predict_sum.c: double sum_predict_stdin(int argc, char **argv, const char *input), double sum_predict(int argc, char **argv)
  $ grep -c 'file_size(input); /\* input:size(stdin) \*/' predict_sum.c
  1
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=sum_predict -DPREDICT_STDIN=sum_predict_stdin -o sum "$TESTDIR/data/predict-driver.c" predict_sum.c
  $ ./sum '<t1.bin' - '<nothere.bin' > mine.txt
  $ for s in '--stdin t1.bin' ''; do mantis predict sumpred --json $s 2> /dev/null | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ head -2 mine.txt | awk '{print $2}' | diff - theirs.txt
  $ tail -1 mine.txt
  <nothere.bin nan No such file or directory
