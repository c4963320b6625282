The final evaluator computes all the model's features at once, and slices add up: here two
loops cost about a third of the run each, under the 47% threshold alone (by 1.4x) but not
together (by 1.4x: margins that hold on a loaded machine, where times vary 6-16%). The
loop must reject the costlier, with every stand-in that would not fit beside the rest of the
model, and fit again until the final evaluator is under the threshold. (Program features only:
--no-input-features.)

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > /* Steps of a random walk until its top bits are a multiple of k: about k steps, and only
  >  * running the walk tells how many. */
  > #define WALK(name, seed) \
  > 	static long name(long k) \
  > 	{ \
  > 		unsigned long h = seed; \
  > 		long steps = 0; \
  > 		do { \
  > 			h = h * 6364136223846793005ul + 1442695040888963407ul; \
  > 			steps++; \
  > 		} while ((long)((h >> 33) % (unsigned long)k) != 0); \
  > 		return steps; \
  > 	}
  > WALK(walk_a, 1)
  > WALK(walk_b, 2)
  > WALK(walk_c, 3)
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  > 	long a, b, c;
  > 
  > 	if (!f || fscanf(f, "%ld %ld %ld", &a, &b, &c) != 3)
  > 		return 1;
  > 	printf("%ld\n", walk_a(a) + walk_b(b) + walk_c(c));
  > 	return 0;
  > }
  > C
  $ i=0; while read a b; do
  >   i=$((i + 1)); echo "$a $b 47000000" > in$i.txt; echo in$i.txt >> train.txt
  > done <<'IN'
  > 16000000 23000000
  > 18000000 46500000
  > 32500000 62500000
  > 39500000 45500000
  > 45000000 53000000
  > 63500000 41000000
  > 75500000 48500000
  > 16000000 41000000
  > 18000000 48500000
  > 32500000 23000000
  > 39500000 46500000
  > 45000000 62500000
  > 63500000 45500000
  > 75500000 53000000
  > 16000000 45500000
  > 18000000 53000000
  > IN
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.47 --no-input-features prog.c > log
  $ grep -c 'together costs .* over the threshold: rejecting ' log | awk '$1 >= 1 {print "rejected for the joint cost"}'
  rejected for the joint cost
  $ /usr/bin/python3 - <<'PY'
  > import json
  > train = json.load(open("pred/train.json"))
  > joint = [d for it in train["iterations"] for d in it["decisions"]
  >          if d.get("reason", "").startswith("with the final model's other features")]
  > final = train["final"]
  > print("stand-ins rejected:", len(joint) >= 2)
  > print("final evaluator under the threshold:", final["cost"] <= 0.47, final["validated"])
  > PY
  stand-ins rejected: True
  final evaluator under the threshold: True True
