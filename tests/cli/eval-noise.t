mantis eval's noise floor compares two measurements of each input's time, each the median of K
runs, made a pass over every input apart: a shared machine's speed wanders over minutes (lz4's
training inputs, re-timed during one eval, took 1.04x, 0.87x and then 1.08x their profiled
time, 4 minutes apart), which K more runs back to back do not see. Here the program writes its
argument to a log on each run, so the order of the runs shows the two passes:

  $ cat > spin.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int main(int argc, char **argv)
  > {
  > 	long n = argc > 1 ? atol(argv[1]) : 0;
  > 	const char *log = getenv("RUN_LOG");
  > 	volatile unsigned long h = 0;
  > 
  > 	if (getenv("RUN_FAIL"))
  > 		return 3;
  > 	if (log) {
  > 		FILE *f = fopen(log, "a");
  > 
  > 		fprintf(f, "%ld\n", n);
  > 		fclose(f);
  > 	}
  > 	for (long i = 0; i < n * 2000000L; i++)
  > 		h = h * 31 + (unsigned long)i;
  > 	printf("%lu\n", (unsigned long)h % 10);
  > 	return 0;
  > }
  > C
  $ for i in 2 4 6 8 10 12 14 16; do echo $i >> train.txt; done
  $ printf '3\n5\n7\n' > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric wall spin.c > /dev/null
  $ RUN_LOG=$PWD/runs.log mantis eval pred --inputs test.txt --repeat 2 --drift-every 0 --json > e.json
  $ tr '\n' ' ' < runs.log; echo
  3 3 5 5 7 7 3 3 5 5 7 7 
  $ sqlite3 pred/eval.db 'SELECT line, actual > 0, again > 0 FROM samples ORDER BY line'
  1|1|1
  2|1|1
  3|1|1
  $ python3 -c 'import json; e = json.load(open("e.json")); print(e["n"], e["noise_floor"] >= 0)'
  3 True

An eval stopped between the passes resumes with the second measurements it lacks alone:

  $ sqlite3 pred/eval.db 'UPDATE samples SET again = NULL WHERE line = 2'
  $ rm runs.log && RUN_LOG=$PWD/runs.log mantis eval pred --inputs test.txt --repeat 2 --drift-every 0 --json > /dev/null
  mantis eval: 3 of 3 inputs measured before, taken from pred/eval.db (--fresh measures again)
  $ tr '\n' ' ' < runs.log; echo
  5 5 

A second measurement that fails leaves the input out of the floor (and in the error), and is
made again the next time:

  $ sqlite3 pred/eval.db 'UPDATE samples SET again = NULL WHERE line = 2'
  $ RUN_FAIL=1 mantis eval pred --inputs test.txt --repeat 2 --drift-every 0 --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["n"], e["noise_floor"] is not None)'
  3 True
  $ sqlite3 pred/eval.db 'SELECT line FROM samples WHERE again IS NULL'
  2

The instruction count is exact, its own second measurement: no second pass.

  $ mantis train -o ipred --inputs train.txt --repeat 1 --metric instructions spin.c > /dev/null
  $ rm runs.log && RUN_LOG=$PWD/runs.log mantis eval ipred --inputs test.txt --repeat 2 --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["noise_floor"])'
  0.0
  $ tr '\n' ' ' < runs.log; echo
  3 3 3 5 5 5 7 7 7 
