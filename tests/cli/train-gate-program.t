A gate below a model of the program's features: where the final choice takes a model that runs
an evaluator on every input (a key's value only the program reads), and the samples cost more
than the threshold on average (the program's fixed set-up, run twice, on two samples of a short
file), the model of the input's features alone orders the training inputs, the gate lets
through the longest, whose samples cost little, and a second predictor, PRED/long, is trained
on them; the pair (PRED/long above the gate, the input features' model below) replaces the
program's model where it errs less over all the training inputs, each held out, by more than a
standard error. Here the key (data/keyed.py: 16 bytes, their sum modulo 3 the key's strength,
1 to 3) multiplies the work on a file's high bytes; the long files (1-2 MB) are under three
keys, the short ones (20-40 KB) under one, and the share of high bytes differs little between
files (28-36 of 64), so the key's value and the file's size err about 10% where the input
features alone, blind to the key, err 25%; samples tell the high bytes exactly.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 2 ? fopen(argv[1], "rb") : NULL, *kf = argc > 2 ? fopen(argv[2], "rb") : NULL;
  > 	unsigned char key[64];
  > 	unsigned long h = 5381, k = 0;
  > 	size_t got;
  > 	int c;
  > 
  > 	if (!f || !kf)
  > 		return 1;
  > 	got = fread(key, 1, sizeof key, kf);
  > 	for (size_t i = 0; i < got; i++)
  > 		k += key[i];
  > 	k = k % 3 + 1; /* the key's strength, which only running the program tells */
  > 	fclose(kf);
  > 	for (unsigned long i = 0; i < 20000000; i++) /* the program's set-up: fixed work */
  > 		h = h * 31 + i;
  > 	while ((c = getc(f)) != EOF) {
  > 		c ^= (int)(h >> 63); /* every value of c needs h: no slice reads the file alone */
  > 		if (c >= 128) {
  > 			for (unsigned long r = (h % 512 + 256) * k; r > 0; r--)
  > 				h = h * 33 + (unsigned long)c;
  > 		} else {
  > 			h ^= (unsigned long)c;
  > 		}
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ python3 "$TESTDIR/data/keyed.py" 1 14 in 1000000 2000000 3 > train.txt
  $ python3 "$TESTDIR/data/keyed.py" 3 10 sm 20000 40000 1 >> train.txt
  $ python3 "$TESTDIR/data/keyed.py" 2 6 t 1000000 2000000 3 > test.txt
  $ python3 "$TESTDIR/data/keyed.py" 4 4 ts 20000 40000 1 >> test.txt
  $ mantis train -o pred --inputs train.txt --repeat 3 --metric instructions --threshold 0.15 prog.c > log.txt
  $ grep -E '^(gate|sampled features: left out)' log.txt | sed -E 's/[0-9][0-9.e+]*%/N%/g; s/round [0-9]+/round N/; s/the [0-9]+ judged/the N judged/; s/at [0-9.e+]+ or more/at G or more/; s/of [0-9.]+ points/of N points/; s/in the (kept|cheapest) way/in the W way/; s/degree [0-9]/degree D/; s/on the 1[34] inputs/on the M inputs/; s/trained on 1[34] of/trained on M of/'
  sampled features: left out from round N on: the N judged all cost more than the threshold (the least N%: the program's fixed work, run on two samples)
  gate: the samples cost N% of the program's time on the M inputs the input features alone, degree D predicts at G or more (in the W way): pred/long is trained on them, against the program's model
  gate: trained on M of the 24 inputs, those the gate lets through
  gate: ---- the end of pred/long's training ----
  gate: on those inputs, held out, pred/long's model errs N% and this one N% (a standard error of N points)
  gate: on all 24 inputs, held out, the gated pair (pred/long above it, the model without an evaluator below) errs N% and the program's model N% (a standard error of N points)

The decisions: the final choice took the program's features (the key's value), which the pair
replaced (train.json choice "replaced"); the first model written reads the input's features
alone, with no evaluator; the gate lets through the fourteen long files (thirteen when the
shortest of them is judged too dear on a loaded machine), whose samples cost under the
threshold there; PRED/long reads sampled features and errs less than the program's
model on them by more than a standard error; over all 24 inputs, the pair errs less than the
program's model by more than a standard error:

  $ cat > decisions.py <<'PY'
  > import json
  > info = json.load(open("pred/predictor.json"))
  > train = json.load(open("pred/train.json"))
  > choice, gate = train["choice"], train["gate"]
  > print(choice["chosen"], choice["replaced"]["features"], "above_gate" in choice)
  > print(info["evaluator"], info["sampled"], all(f["name"].startswith("input:") for f in json.load(open("pred/model.json"))["features"]))
  > print(gate["kept"], gate["below"], gate["inputs"] in (13, 14), gate["cost"] < 0.15, info["gate"] == {"at_least": gate["at_least"], "predictor": "long"})
  > names = [f["name"] for f in json.load(open("pred/long/model.json"))["features"]]
  > print(any(n.startswith("sampled") for n in names), gate["held_out"]["first"] - gate["held_out"]["long"] > gate["held_out"]["standard_error"] > 0)
  > pair = gate["pair"]
  > print(pair["program"] - pair["pair"] > pair["standard_error"] > 0, pair["program"] > 0.05)
  > PY
  $ python3 decisions.py
  input program False
  None None True
  True input True True True
  True True
  True True

On the held-out files, the long ones the input features' model puts at the gate or more are
predicted through pred/long, within 3%; the rest by the file's size:

  $ mantis eval pred --inputs test.txt --json 2> /dev/null > eval.json
  $ cat > held-out.py <<'PY'
  > import json
  > for s in json.load(open("pred/eval.json"))["samples"]:
  >     name = s["args"].split()[0].split("/")[-1]
  >     e = abs(s["predicted"] - s["actual"]) / s["actual"]
  >     sampled = any(f.startswith("sampled") for f in s["features"])
  >     if name == "t4.bin": # the shortest long file, at the gate: either side, as costs fall
  >         print(name, "either side:", e < 0.03 if sampled else sorted(s["features"]) == ["input:size(arg1)"])
  >     else:
  >         print(name, "sampled, within 3%:" if sampled else "by", e < 0.03 if sampled else sorted(s["features"]))
  > PY
  $ python3 held-out.py
  t0.bin sampled, within 3%: True
  t1.bin sampled, within 3%: True
  t2.bin sampled, within 3%: True
  t3.bin sampled, within 3%: True
  t4.bin either side: True
  t5.bin sampled, within 3%: True
  ts0.bin by ['input:size(arg1)']
  ts1.bin by ['input:size(arg1)']
  ts2.bin by ['input:size(arg1)']
  ts3.bin by ['input:size(arg1)']
