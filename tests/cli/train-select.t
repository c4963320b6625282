mantis train --select adaptive: profile only the inputs of the pool that the model needs
(select.c, after mantis explore's adaptive breakdown). prog.c's instruction count is
exactly linear in the number of input lines times its second argument, so 10 inputs spread
over the pool already cross-validate under the target, and so does the model of the features
accepted (the model train ends with):

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  > 	long x, n = 0, work = 0, k = argc > 2 ? atol(argv[2]) : 1;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while (fscanf(f, "%ld", &x) == 1) {
  > 		n++;
  > 		for (long i = 0; i < 20000 * k; i++)
  > 			work += (i ^ x) % 7;
  > 	}
  > 	fclose(f);
  > 	printf("%ld %ld\n", n, work);
  > 	return 0;
  > }
  > C
  $ for i in $(seq 1 30); do seq $((i*7)) $((i*7 + (i*37)%200 + 10)) > in$i.txt; echo "in$i.txt $(( (i*13)%9 + 1 ))" >> pool.txt; done
  $ for i in $(seq 1 8); do seq $((i*11)) $((i*11 + (i*53)%200 + 10)) > t$i.txt; echo "t$i.txt $(( (i*7)%9 + 1 ))" >> test.txt; done
  $ mantis train -o pred --select adaptive --inputs pool.txt --repeat 1 --metric instructions --threshold 0.8 prog.c > train.log
  $ grep -E '^(select|profile):' train.log
  select: round 1, 10 of 30 inputs profiled (10 complete), cross-validated error 0.0% (target 10.0%)
  profile: 10 inputs complete
  select: validating the model of the accepted features alone (1 of * program features, * input features) (glob)
  select: round 1, 10 of 30 inputs profiled (10 complete), cross-validated error 0.0% (target 10.0%)
  profile: 10 inputs complete

Two runs per selected input (the instrumented one and one timing run) and three recheck runs
(the instrumented one again on the longest), none for the others, and the predictor is as exact
on unseen inputs as the model is:

  $ python3 -c 'import sqlite3; db = sqlite3.connect("pred/build/profile.db"); print(db.execute("SELECT count(*), count(DISTINCT input) FROM runs").fetchone(), db.execute("SELECT count(*) FROM inputs").fetchone())'
  (23, 10) (30,)
  $ mantis eval pred --inputs test.txt --repeat 1 --json | python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["n"], r["mre"] < 1e-4)'
  8 True

With an unreachable target, five more inputs per round (where the expected error is largest)
up to --max-inputs; a resumed train reuses every run:

  $ mantis train -o pred --select adaptive --target 0 --max-inputs 20 --inputs pool.txt --repeat 1 --metric instructions --threshold 0.8 prog.c | grep -E '^(select|profile):' | sed 's/error [0-9.]*%/error E/'
  select: round 1, 10 of 30 inputs profiled (10 complete), cross-validated error E (target 0.0%)
  select: round 2, 15 of 30 inputs profiled (15 complete), cross-validated error E (target 0.0%)
  select: round 3, 20 of 30 inputs profiled (20 complete), cross-validated error E (target 0.0%)
  profile: 20 inputs complete
  select: validating the model of the accepted features alone (1 of * program features, * input features) (glob)
  select: round 1, 20 of 30 inputs profiled (20 complete), cross-validated error E (target 0.0%)
  profile: 20 inputs complete
  $ python3 -c 'import sqlite3; print(sqlite3.connect("pred/build/profile.db").execute("SELECT count(*) FROM runs").fetchone())'
  (43,)

The selection first validates the model of every feature; train then rejects the features
whose evaluators cost more than the threshold, and goes on selecting while the model of the
accepted ones alone, the kind it ends with, cross-validates over the target. lcg.c's count is
exactly linear in the steps of its inner loop, which only running that loop can count (70% of
the program's time and more, rejected at 30%); the cheap count of numbers read explains it in
part (each number's steps vary: a random multiple), so 10 inputs validate the first model at
0% and the final one at over 10%: more inputs, up to --max-inputs. The files are scripts of
numbers (tests/cli/train-script.t), whose numbers are input features too: the loop's model on
the first 10 inputs reads input features alone, and so does the final choice, with no
evaluator.

  $ cat > lcg.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  > 	unsigned long x, n = 0, steps = 0;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while (fscanf(f, "%lu", &x) == 1) {
  > 		unsigned h = (unsigned)x;
  > 
  > 		n++;
  > 		do {
  > 			h = h * 1103515245u + 12345u;
  > 			steps++;
  > 		} while (h % 16777216 != 0);
  > 	}
  > 	fclose(f);
  > 	printf("%lu %lu\n", n, steps);
  > 	return 0;
  > }
  > C
  $ for i in $(seq 1 24); do seq $((i*7)) $((i*7 + i % 5 + 1)) > l$i.txt; echo "l$i.txt" >> lcg.txt; done
  $ mantis train -o lcg --select adaptive --max-inputs 16 --inputs lcg.txt --repeat 1 --metric instructions --threshold 0.3 lcg.c > lcg.log
  $ grep -E '^(select|profile|evaluator):' lcg.log | sed 's/error [1-9][0-9.]*%/error E/'
  select: round 1, 10 of 24 inputs profiled (10 complete), cross-validated error 0.0% (target 10.0%)
  profile: 10 inputs complete
  evaluator: none (the model reads only input features, read off the input)
  select: validating the model of the accepted features alone (0 of * program features, * input features) (glob)
  select: round 1, 10 of 24 inputs profiled (10 complete), cross-validated error E (target 10.0%)
  select: round 2, 15 of 24 inputs profiled (15 complete), cross-validated error E (target 10.0%)
  select: round 3, 16 of 24 inputs profiled (16 complete), cross-validated error E (target 10.0%)
  profile: 16 inputs complete
  evaluator: 1 features, cost *% of the program's time, validated on 16 inputs (glob)
  select: validating the model of the accepted features alone (3 of * program features, * input features) (glob)
  select: round 1, 16 of 24 inputs profiled (16 complete), cross-validated error E (target 10.0%)
  profile: 16 inputs complete
  evaluator: none (the model reads only input features, read off the input)
  $ python3 -c 'import json; print(all(f["name"].startswith("input:") for f in json.load(open("lcg/model.json"))["features"]))'
  True

  $ mantis train -o pred --select some --inputs pool.txt prog.c
  mantis train: --select: 'some' is not all or adaptive
  See 'mantis help train'.
  [2]
