mantis eval measures the machine's drift since training: it re-times three training inputs
before the first input and after every N, and compares them with the times the profile holds.
Here the "machine" becomes three times slower after training: the program spins three times as
long when SPIN_SLOWER is set, as a machine at a third of its speed would. The prediction is then
off by two thirds, and the drift says why: the training inputs take 3x their profiled CPU time,
and each prediction times its drift is close again (within a few percent on a quiet machine;
the bound is 30%, under the 67% the drift explains, since one timed run a line on a machine
loaded by other jobs has erred over 15%).

  $ cat > spin.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > #ifndef FACTOR
  > #define FACTOR 1
  > #endif
  > int main(int argc, char **argv)
  > {
  > 	long n = argc > 1 ? atol(argv[1]) : 0, m = getenv("SPIN_SLOWER") ? 3 : FACTOR;
  > 	volatile unsigned long h = 0;
  > 
  > 	for (long i = 0; i < n * m * 5000000L; i++)
  > 		h = h * 31 + (unsigned long)i;
  > 	printf("%lu\n", (unsigned long)h % 10);
  > 	return 0;
  > }
  > C
  $ for i in 2 4 6 8 10 12 14 16 18 20; do echo $i >> train.txt; done
  $ printf '3\n3\n15\n19\n' > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 3 --metric cpu spin.c > log.txt
  $ SPIN_SLOWER=1 mantis eval pred --inputs test.txt --repeat 1 --drift-every 2 --json > slow.json
  mantis eval: 1 of 4 inputs measured before, taken from pred/eval.db (--fresh measures again)
  $ cat > check.py <<'PY'
  > import json, sys
  > e = json.load(open(sys.argv[1]))
  > d = e["drift"]
  > print(e["n"], e["mre"] > 0.5, d["n"], 2 < d["low"] <= d["median"] <= d["high"] < 4.5, d["mre"] < 0.3)
  > samples = json.load(open("pred/eval.json"))["samples"]
  > print([round(s["drift"]) for s in samples])
  > PY
  $ python3 check.py slow.json
  4 True 4 True True
  [3, 3, 3, 3]

(Line 2 repeats line 1, so it is taken from eval.db: it gets line 1's factor, made by the
check after line 3.)

Each input's factor is kept in PRED/eval.db with its measurement, so an eval run again takes
both from there, and gives the same figures:

  $ SPIN_SLOWER=1 mantis eval pred --inputs test.txt --repeat 1 --drift-every 2 --json > again.json
  mantis eval: 4 of 4 inputs measured before, taken from pred/eval.db (--fresh measures again)
  $ python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["drift"] == json.load(open(sys.argv[2]))["drift"])' slow.json again.json
  True

The text output gives the drift and the error without it:

  $ SPIN_SLOWER=1 mantis eval pred --inputs test.txt --repeat 1 --drift-every 2 2>/dev/null | grep -c -E '^(machine drift: training inputs re-timed took [234]\.[0-9]{3}x their profiled cpu|each prediction times the drift: mean relative error [0-9.]+%)'
  2

mantis report shows both in its eval summary:

  $ mantis report pred -o report.html > /dev/null
  $ grep -o -E '<th>(machine drift|mean relative error, each|median of)[^<]*</th><td class="n">[0-9.]+' report.html | sed -E 's/[0-9.]+$/N/'
  <th>median of actual / predicted</th><td class="n">N
  <th>machine drift (training inputs re-timed / their profiled value)</th><td class="n">N
  <th>mean relative error, each prediction times the drift</th><td class="n">N
  <th>median of actual / (predicted times the drift)</th><td class="n">N

A CI job that must flag a slowdown of a new build measures the new build with --program
against the trained predictions. Here the new build spins twice as long: A/E is 2 times the
drift, and the drift, measured with the trained build, is about 1, so the machine is not the
cause. (A/E alone is 2 only if the machine is as fast as when it trained; on a shared machine it
need not be, which is why the drift is measured: CI once saw both A/E and the drift off by a
third, and A/E over the drift still 2.)

  $ clang-14 -O2 -DFACTOR=2 -o spin2 spin.c
  $ mantis eval pred --inputs test.txt --repeat 1 --drift-every 2 --program spin2 --json > new.json
  mantis eval: 1 of 4 inputs measured before, taken from pred/eval.db (--fresh measures again)
  $ python3 -c 'import json; e = json.load(open("new.json")); d = e["drift"]; print(1.6 < d["ratio"] < 2.5, 0.5 < d["median"] < 1.5)'
  True True
  $ python3 -c 'import json, os; print(os.path.basename(json.load(open("pred/eval.json"))["program"]))'
  spin2

Only a time can be measured on another build: the instruction count comes from the trained
build's instrumented copy.

  $ mantis train -o ipred --inputs train.txt --repeat 1 --metric instructions spin.c > /dev/null
  $ mantis eval ipred --inputs test.txt --program spin2
  mantis: --program: ipred predicts the instruction count, which only the trained build's instrumented copy counts
  [1]
  $ mantis eval pred --inputs test.txt --program nothere
  mantis: --program: nothere: No such file or directory
  [1]
  $ mantis eval pred --inputs test.txt --program spin.c
  mantis: --program: spin.c is not executable
  [1]

No drift is measured with --drift-every 0, or when the training inputs are gone (a message
says so); the rest of the eval is the same:

  $ mantis eval pred --inputs test.txt --repeat 1 --drift-every 0 --fresh --json | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["n"], e["drift"])'
  4 None
  $ mv train.txt moved.txt
  $ mantis eval pred --inputs test.txt --repeat 1 --fresh --json | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["n"], e["drift"])'
  mantis eval: the machine's drift is not measured: the training inputs: cannot open inputs file */train.txt: No such file or directory (glob)
  4 None
  $ mantis eval pred --inputs test.txt --drift-every -1
  mantis eval: --drift-every must be 0 (no drift checks) or more
  See 'mantis help eval'.
  [2]
