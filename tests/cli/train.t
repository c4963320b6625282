mantis train, predict and eval on a program whose best feature is only known at the end of
the run: the number of hash steps (h.count) gives the exact instruction count, but computing it
takes the whole run. The feedback loop must reject it and settle on a cheap feature: the number
of input lines. (The threshold is 20% so that a loaded machine, which slows the evaluators'
start more than the program, cannot reject the cheap features: they cost 2-5% here.) The file's
size tells the number of lines as well, and train would then choose it alone (no evaluator:
tests/cli/train-input.t); --no-input-features keeps to the program's features, the subject here.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  > 	unsigned long x, h, work = 0;
  > 	long n = 0, total;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while (fscanf(f, "%lu", &x) == 1) {
  > 		n++;
  > 		h = x;
  > 		do {
  > 			h = h * 6364136223846793005UL + 1442695040888963407UL;
  > 			work++;
  > 		} while ((h >> 40) % 1000000 != 7);
  > 	}
  > 	fclose(f);
  > 	total = (long)work;
  > 	printf("%ld %ld\n", n, total);
  > 	return 0;
  > }
  > C
  $ for i in 1 2 3 4 5 6 7 8; do seq $((i*1000+1)) $((i*1000+i*20)) > in$i.txt; echo "in$i.txt" >> train.txt; done
  $ for i in 1 2 3; do seq $((i*777)) $((i*777+i*30)) > t$i.txt; echo "t$i.txt" >> test.txt; done
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.2 --no-input-features --quiet prog.c
  $ ls pred
  build
  evaluator
  evaluator.bc
  evaluator.so
  features.json
  instructions.json
  model.json
  predictor.json
  train.json

Fitted on every feature, the model reads h.count alone (it is exact):

  $ mantis model pred/build --metric instructions --train-frac 1 --json -o - | python3 -c 'import json, sys; print(sorted({f for t in json.load(sys.stdin)["terms"] for f in t["powers"]}))'
  ['value:main:prog.c:6:h.count']

Its evaluator would cost the whole run: training rejects it for its cost, and every feature
the final model reads was accepted, validated and cheap:

  $ cat > decisions.py <<'PY'
  > import json
  > log = json.load(open("pred/train.json"))
  > rejected = {d["name"]: d for d in log["rejected_before_slicing"]}
  > rejected.update({d["name"]: d for it in log["iterations"] for d in it["decisions"] if not d["accepted"]})
  > print("cost" in rejected["value:main:prog.c:6:h.count"]["reason"])
  > decided = {d["name"]: d for it in log["iterations"] for d in it["decisions"]}
  > final = json.load(open("pred/model.json"))
  > names = sorted({f for t in final["terms"] for f in t["powers"]})
  > print(len(names) > 0, "value:main:prog.c:6:h.count" in names,
  >       all(decided[n]["accepted"] and decided[n]["validated"] and decided[n]["cost"] < 0.2 for n in names))
  > print(log["final"]["validated"], log["final"]["cost"] < 0.2, log["final"]["inputs"])
  > PY
  $ python3 decisions.py
  True
  True False True
  True True 8

At a threshold of 5%, h.count is rejected before any slicing: its slice's estimated cost
passes 5 times the threshold, and its reachability stops there (the cost recorded is what it
had marked by then, a lower bound). The number of lines, cheap, is kept: the loop's branch, its
fscanf call (one more) or n's assignments, alike to the model; on a loaded machine one's
evaluator can pass 5% (a process start, against a 2 ms program) and another's be taken.

  $ mantis train -o low --inputs train.txt --repeat 1 --metric instructions --threshold 0.05 --no-input-features prog.c | grep '^estimate:' | sed -E 's/; [0-9.]+ s[)]/)/'
  estimate: 12 of 16 varying features rejected by their slice's estimated cost (16 estimated, the most correlated with the metric first, 12 of them stopped once over; first values within it, whose evaluators stop once assigned: 1)
  $ python3 -c '
  > import json; log = json.load(open("low/train.json"))
  > early = {d["name"]: d for d in log["rejected_before_slicing"]}
  > h = early["value:main:prog.c:6:h.count"]
  > print(h["reason"].startswith("estimated cost over"), 0.25 < h["cost"] <= 1)
  > names = {f for t in json.load(open("low/model.json"))["terms"] for f in t["powers"]}
  > print(len(names), names <= {"branch:main:prog.c:11:true", "call:__isoc99_fscanf:prog.c:11:count",
  >                   "value:main:prog.c:7:n.count"})'
  True True
  1 True

Run again, it resumes: the build and every recorded run are reused.

  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.2 --no-input-features prog.c | head -1
  build: pred/build is up to date
  $ python3 -c 'import sqlite3; print(sqlite3.connect("pred/build/profile.db").execute("select count(*) from runs").fetchone()[0])'
  19

A build whose IR a mantis of another kind prepared (its record ends otherwise) is made again, and
the profile with it:

  $ tail -1 pred/build/program.txt
  prepared 2
  $ cp -r pred older && sed -i '$d' older/build/program.txt
  $ mantis train -o older --inputs train.txt --repeat 1 --metric instructions --threshold 0.2 --no-input-features prog.c | head -1
  build: instrumenting the program into older/build
  mantis: the previous profile is kept as older/build/profile.db.[0-9-]+ (re)

Killed in the middle, it resumes too:

  $ bash -c 'timeout -s KILL 1 mantis train -o pred2 --inputs train.txt --repeat 1 --metric instructions --threshold 0.2 --no-input-features --quiet prog.c; echo $?' 2> /dev/null
  137
  $ mantis train -o pred2 --inputs train.txt --repeat 1 --metric instructions --threshold 0.2 --no-input-features --quiet prog.c
  $ python3 -c 'import json; print(json.load(open("pred2/predictor.json"))["evaluator"])'
  evaluator

Predictions: the evaluator reads the input file and nothing else; an input file that does not
exist is an error, and a feature outside its training range a warning:

  $ mantis predict pred --json -- t2.txt > p.json
  $ python3 -c 'import json; d = json.load(open("p.json")); print(sorted(d), d["metric"], list(d["features"].values()))'
  ['evaluator_seconds', 'features', 'interval', 'metric', 'prediction'] instructions [61.0]
  $ mantis predict pred -- missing.txt
  mantis: input file missing.txt cannot be read (missing): the program would fail on this input; no prediction
  [1]
  $ seq 1 400 > big.txt
  $ mantis predict pred -- big.txt > /dev/null
  mantis predict: warning: branch:main:prog.c:11:true = 400 is outside its training range [20, 160]: the model goes on linearly past the range

mantis-predict is the same command in an executable that does not load LLVM (a scheduler that
predicts each job by running a command pays no libLLVM start-up): the same prediction, errors
and help:

  $ mantis predict pred -- t2.txt | grep -v '^evaluator ran' > a.txt
  $ mantis-predict pred -- t2.txt | grep -v '^evaluator ran' > b.txt
  $ cmp a.txt b.txt && head -1 b.txt | sed -E 's/[0-9]+/N/'
  N instructions
  $ mantis-predict pred -- missing.txt
  mantis: input file missing.txt cannot be read (missing): the program would fail on this input; no prediction
  [1]
  $ mantis-predict --help | head -1
  usage: mantis predict PRED [--json] [--budget S] [--stdin FILE] [--] ARGS...
  $ ldd "$(command -v mantis-predict)" 2>&1 | grep -c libLLVM
  0
  [1]

eval compares with the program on held-out inputs; the instruction count is exact, so its
noise floor is 0:

  $ mantis eval pred --inputs test.txt --repeat 1 --json > e.json
  $ python3 -c 'import json; d = json.load(open("e.json")); print(d["n"], d["noise_floor"], d["predict_cost"] < 0.2, d["failed"])'
  3 0.0 True []

Beside the cost, its floor: the evaluator's process start-up alone (timed with
MANTIS_EVALUATOR_START_ONLY, which ends it before main), a positive share of the program's time:

  $ python3 -c 'import json; d = json.load(open("e.json")); print(0 < d["start_cost"] < 1)'
  True

And the prediction command's, as a scheduler pays it (mantis-predict beside mantis, run once per
input: its own start, the predictor read, then the evaluator), more than the evaluator's run:

  $ python3 -c 'import json; d = json.load(open("e.json")); print(d["call_cost"] > d["predict_cost"] > 0)'
  True

And the prediction with the evaluator's shared-object form (PRED/evaluator.so) run in a host's
process in place of its own, which pays no process start, less:

  $ python3 -c 'import json; d = json.load(open("e.json")); print(d["predict_cost"] > d["inproc_cost"] > 0)'
  True
  $ MANTIS_EVALUATOR_START_ONLY=1 MANTIS_COUNTERS=$PWD/c pred/evaluator t1.txt; echo $?; ls c
  0
  ls: cannot access 'c': No such file or directory
  [2]

Beside PRED/evaluator, train builds its shared-object form (src/solib.c), which runs in its
caller's process, validates it on the training inputs as mantis-host runs it, and records its
cost there (not yet used by predict); mantis-host computes what the evaluator computes:

  $ python3 -c 'import json; d = json.load(open("pred/predictor.json")); print(d["in_process"]["object"], d["in_process"]["cost"] > 0, d["in_process"]["cold_cost"] > 0)'
  evaluator.so True True
  $ MANTIS_COUNTERS=$PWD/e.bin pred/evaluator t1.txt && MANTIS_COUNTERS=$PWD/h.bin mantis-host pred/evaluator.so prog t1.txt && cmp e.bin h.bin

eval also writes every input's comparison to PRED/eval.json (mantis report draws it):

  $ python3 -c 'import json; d = json.load(open("pred/eval.json")); s = d["samples"][0]; print(len(d["samples"]), d["metric"], s["line"], s["args"].split("/")[-1], s["ok"], sorted(s["features"]), s["actual"] > 0, d["summary"]["n"])'
  3 instructions 1 t1.txt True ['branch:main:prog.c:11:true'] True 3

With --baselines, four baselines on the same inputs: the black box (SPORE over the arguments and
file sizes), Mantis-linear (the same features, degree 1), partial execution (the instrumented
program until the features hold their final values) and bounded execution (the features it
counted within the predictor's time). The model reads the program's own final feature values
under partial execution, so its error there is the predictor's own, at a higher cost:

  $ mantis eval pred --inputs test.txt --repeat 1 --baselines --json > b.json
  $ python3 -c 'import json; d = json.load(open("b.json")); b = d["baselines"]; print(sorted(b), sorted(b["blackbox"]), b["partial_execution"]["n"], abs(b["partial_execution"]["mre"] - d["mre"]) < 1e-12, b["partial_execution"]["cost"] > 0, b["linear"]["n"], 0 <= b["blackbox"]["mre"] < 10, b["bounded_execution"]["n"])'
  ['blackbox', 'bounded_execution', 'linear', 'partial_execution'] ['cost', 'lt15', 'lt30', 'max_re', 'median_re', 'mre', 'n'] 3 True True 3 True 3

Every input's measurement is recorded in PRED/eval.db as soon as it is made. The eval without
baselines recorded 3 rows; the one with baselines replaced them (a row is reused only if it has
what is asked). Run again, eval measures nothing and prints the same figures:

  $ sqlite3 pred/eval.db 'SELECT count(*), sum(baselines), sum(ok) FROM samples'
  3|3|3
  $ mantis eval pred --inputs test.txt --repeat 1 --baselines --json > again.json
  mantis eval: 3 of 3 inputs measured before, taken from pred/eval.db (--fresh measures again)
  $ cmp b.json again.json && echo same
  same

An eval stopped part way resumes: here 2 inputs measured first, then all 3 (another K is another
measurement). An input whose file changed is measured again, and --fresh measures every input:

  $ head -2 test.txt > part.txt && mantis eval pred --inputs part.txt --repeat 2 --json > /dev/null
  $ mantis eval pred --inputs test.txt --repeat 2 --json > /dev/null
  mantis eval: 2 of 3 inputs measured before, taken from pred/eval.db (--fresh measures again)
  $ touch t1.txt && mantis eval pred --inputs test.txt --repeat 2 --json > /dev/null
  mantis eval: 2 of 3 inputs measured before, taken from pred/eval.db (--fresh measures again)
  $ mantis eval pred --inputs test.txt --repeat 2 --fresh --json > /dev/null
  $ sqlite3 pred/eval.db 'SELECT setting, count(*) FROM samples GROUP BY setting'
  metric=instructions repeat=1 timeout=0 budget=60|3
  metric=instructions repeat=2 timeout=0 budget=60|3

A database made before eval timed the evaluator's start-up and the prediction command gets the
columns; its rows are reused, with no such figures (null), and a measurement made since has them:

  $ sqlite3 pred/eval.db 'ALTER TABLE samples DROP COLUMN start_cost; ALTER TABLE samples DROP COLUMN call_cost'
  $ mantis eval pred --inputs test.txt --repeat 2 --json 2> /dev/null | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["start_cost"], d["call_cost"])'
  None None
  $ sqlite3 pred/eval.db 'SELECT count(*), count(start_cost), count(call_cost) FROM samples'
  6|0|0
  $ mantis eval pred --inputs test.txt --repeat 2 --fresh --json | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["start_cost"] > 0, d["call_cost"] > 0)'
  True True

A database that is not eval's is refused, and left as it was:

  $ mkdir p4 && cp -r pred/* p4/ && cp pred/build/profile.db p4/eval.db && md5sum < p4/eval.db > before
  $ mantis eval p4 --inputs test.txt --repeat 1
  mantis: p4/eval.db is not a mantis eval database
  [1]
  $ md5sum < p4/eval.db | cmp - before && echo unchanged
  unchanged

Errors:

  $ mantis train --inputs train.txt prog.c
  mantis train: no predictor directory (-o PRED)
  See 'mantis help train'.
  [2]
  $ mantis train -o p3 --inputs train.txt --threshold x prog.c
  mantis train: --threshold: 'x' is not a number from 0 to 100
  See 'mantis help train'.
  [2]
  $ mantis predict nowhere -- t1.txt
  mantis: nowhere/predictor.json: missing (is this a directory made by mantis train?)
  [1]
