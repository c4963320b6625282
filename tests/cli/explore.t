mantis explore: measure a program at chosen parameter values, fit, validate, stop at the
threshold. work.c runs 8 instructions per step of a loop of N steps (3N slow, 2N more with
-v), so its instruction count is a + 8 n + 16 n mode + 16 n v, give or take the few
instructions of the branches: the figures are exact, and the same on every machine.

  $ cat > work.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > #include <string.h>
  > int main(int argc, char **argv)
  > {
  > 	long n = argc > 1 ? atol(argv[1]) : 0, steps, sum = 0;
  > 	int slow = argc > 2 && strcmp(argv[2], "slow") == 0, verbose = argc > 3;
  > 
  > 	steps = slow ? 3 * n : n;
  > 	if (verbose)
  > 		steps += 2 * n;
  > 	for (long i = 0; i < steps; i++)
  > 		sum += i % 7;
  > 	printf("%ld\n", sum);
  > 	return 0;
  > }
  > C
  $ mantis instrument --schemes bycount -o build work.c > /dev/null

An integer, an enumerated and a boolean parameter (bool:-v: the word -v or no word at all).
SPORE finds that function (0.02% off) after two iterations of adaptive equidistant breakdown:

  $ mantis explore --param n=100:2000 --param mode=fast,slow --param v=bool:-v --metric instructions --infer spore --threshold 0.001 -- build {n} {mode} {v}
  14 points measured to explore (aeb, dsg, spore), 2 iterations: converged (validation error 0.0%, threshold 0.1%)
  44 new, 0 found in build/explore.db (44 runs made)
  independent test, 30 random points: MRE 0.0%, HE 0.0%, LT15 100%, LT30 100%
  spore of instructions on 14 points (*.* s to build): (glob)
  y = 31.64 + 7.998 * n + 16.01 * n * v + 16.01 * n * mode
  mode: 0 = 'fast', 1 = 'slow'
  v: 0 = '', 1 = '-v'

Every run was kept: the same exploration again measures nothing, and another learner on the
same space reuses what it can. --json has the design's keys (the metrics on the independent
random set) and the model:

  $ mantis explore --param n=100:2000 --param mode=fast,slow --param v=bool:-v --metric instructions --infer spore --threshold 0.001 --json -- build {n} {mode} {v} > again.json
  $ python3 -c 'import json; r = json.load(open("again.json")); print(sorted(r)); print(r["points"], r["mre"] < 1e-3, r["lt15"], r["measured"], sorted(r["model"]))'
  ['budget_spent', 'converged', 'he', 'iterations', 'lt15', 'lt30', 'measured', 'metric', 'model', 'mre', 'points', 'select', 'test_points', 'threshold', 'validate', 'validation_error']
  14 True 1.0 {'new': 0, 'reused': 44, 'runs': 0} ['function', 'learner', 'log', 'seconds', 'train']
  $ mantis explore --param n=100:2000 --param mode=fast,slow --param v=bool:-v --metric instructions --select rb --validate rvs --infer cart --json -- build {n} {mode} {v} | python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["select"], r["validate"], r["model"]["learner"], r["measured"]["new"] + r["measured"]["reused"] >= r["points"], r["measured"]["reused"] > 0)'
  rb rvs cart True True
Each point was run once, whichever exploration asked for it:

  $ python3 -c 'import sqlite3; print(sqlite3.connect("build/explore.db").execute("SELECT count(*) = count(DISTINCT input), count(*) > 44 FROM runs").fetchone())'
  (1, 1)

A budget stops the exploration at --max-points:

  $ mantis explore --param n=100:2000 --param mode=fast,slow --metric instructions --threshold 0.0001 --max-points 5 --json -- build {n} {mode} | python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["points"], r["converged"], r["budget_spent"])'
  5 False True

Any executable, timed like the profiler times a build's original program (wall time here; the
database is ./explore.db):

  $ mantis explore --param n=1:3 --repeat 1 --test-points 2 --select rb --validate rvs --validation-points 2 --max-points 4 --json -- build/orig {n} | python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["metric"], r["points"] <= 4, r["test_points"])'
  wall True 2
  $ ls explore.db
  explore.db

A generator makes each point's input files in a folder of its own, {input}, made once:

  $ cat > gen.sh <<'S'
  > #!/bin/sh
  > seq "$1" > "$2/data"
  > S
  $ chmod +x gen.sh
  $ cat > sum.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  > 	long x, sum = 0;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while (fscanf(f, "%ld", &x) == 1)
  > 		sum += x;
  > 	printf("%ld\n", sum);
  > 	return 0;
  > }
  > C
  $ mantis instrument --schemes bycount -o sb sum.c > /dev/null
  $ mantis explore --param n=1:500 --metric instructions --infer mars --test-points 10 --generator './gen.sh {n} {input}' --json -- sb {input}/data | python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["points"], round(r["mre"], 6), r["model"]["function"])'
  9 0.0 2862 + 7 * max(0, n - 406) - 7 * max(0, 406 - n)
  $ ls sb/explore.db.inputs | wc -l
  18
  $ cat sb/explore.db.inputs/*/data | sort -n | tail -1
  500

Usage errors name the parameter or option at fault:

  $ mantis explore --param n=9:3 -- build {n}
  mantis explore: --param: parameter 'n': lo 9 is above hi 3
  See 'mantis help explore'.
  [2]
  $ mantis explore --param n=1:10:4 -- build {n}
  mantis explore: --param: parameter 'n': hi - lo (9) is not a multiple of the step 4
  See 'mantis help explore'.
  [2]
  $ mantis explore --param mode=a,b,a -- build {mode}
  mantis explore: --param: parameter 'mode': value 'a' is given twice
  See 'mantis help explore'.
  [2]
  $ mantis explore --param n=1:10 --param n=2:3 -- build {n}
  mantis explore: --param: parameter 'n' is given twice
  See 'mantis help explore'.
  [2]
  $ mantis explore --param n=1:10 --param m=1:2 -- build {n}
  mantis explore: parameter 'm' is used by neither the command nor the generator (write {m} where its value goes)
  See 'mantis help explore'.
  [2]
  $ mantis explore --param n=1:10 -- build {n} {size}
  mantis explore: '{size}' in '{size}' is not a parameter (give it with --param size=...)
  See 'mantis help explore'.
  [2]
  $ mantis explore -- build 1
  mantis explore: no parameter (--param NAME=lo:hi, NAME=a,b,c or NAME=bool)
  See 'mantis help explore'.
  [2]
  $ mantis explore --param n=1:10
  mantis explore: no program (-- PROGRAM ARGS, with {NAME} where a parameter goes)
  See 'mantis help explore'.
  [2]
  $ mantis explore --param n=1:10 --select rb --validate dsl -- build {n}
  mantis explore: --validate dsl needs --select aeb or arb (random breakdown has no sectors)
  See 'mantis help explore'.
  [2]
  $ mantis explore --param n=1:10 --infer svm -- build {n}
  mantis explore: --infer: 'svm' is not mars, cart, kriging, kriging-nd, gp or spore
  See 'mantis help explore'.
  [2]
  $ mantis explore --param n=1:10 --threshold 0 -- build {n}
  mantis explore: --threshold: '0' is not a positive number (0.1 is 10%)
  See 'mantis help explore'.
  [2]

Failures of the work exit 1 and say where:

  $ mantis explore --param n=1:10 --metric instructions -- build/orig {n}
  mantis: the metric 'instructions' needs a build directory instrumented with the bycount scheme (mantis instrument --schemes bycount)
  [1]
  $ mantis explore --param n=1:10 -- ./missing {n}
  mantis: ./missing: no such executable (nor a mantis instrument build directory)
  [1]
  $ mantis explore --param n=0:3 --metric instructions --db fail.db -- sb {n}
  mantis: sb failed at n=0 (0): nonzero (exit code 1, signal 0)
  [1]
