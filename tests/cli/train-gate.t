A gate: where the runs on the samples cost more than the threshold on the short inputs (the
program's fixed work, run twice, on two samples) but little on the long ones, training keeps
the model of the input's features for the short inputs and trains a second predictor, with
sampled features, on the training inputs its model predicts longest, where they are cheap;
mantis predict decides by the first model's prediction, which costs nothing to compute. Here
a set-up loop (a fixed work whose result every later step reads, so every slice keeps it) runs
before a loop over the file whose work depends on its content (a high byte, 128 or more,
starts an inner loop as long as a hash of everything before says); each file (data/bands.py)
is of 64 byte values, a share of them high that differs from file to file, which no probe of
the content tells (the input features' model misses the long files by 40%) but a run on
samples does; ten training files are short (20-40 KB: a few milliseconds, where the samples
cost about the run), fourteen long (1-2 MB: 0.2-0.7 s, where they cost 2-4%). The threshold is 10%. The gate's edge (the mean cost of
the five inputs it lets through last) alone kept out a short input only where that one cost
over about four times the threshold: at 53 KB the longest short file cost 48% (an edge of
11.6%), and a loaded machine let it through; so the last input let through may cost at most
twice the threshold (SELECT_GATE_LAST). At 40 KB and under the short files cost 60% and more.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	unsigned long h = 5381;
  > 	int c;
  > 
  > 	if (!f)
  > 		return 1;
  > 	for (unsigned long i = 0; i < 1000000; i++) /* the program's set-up: fixed work */
  > 		h = h * 31 + i;
  > 	while ((c = getc(f)) != EOF) {
  > 		c ^= (int)(h >> 63); /* every value of c needs h: no slice reads the file alone */
  > 		if (c >= 128) {
  > 			for (unsigned long r = h % 512 + 256; r > 0; r--)
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
  $ python3 "$TESTDIR/data/bands.py" 1 14 in 1000000 2000000 > train.txt
  $ python3 "$TESTDIR/data/bands.py" 3 10 sm 20000 40000 >> train.txt
  $ python3 "$TESTDIR/data/bands.py" 2 6 t 1000000 2000000 > test.txt
  $ python3 "$TESTDIR/data/bands.py" 4 4 ts 20000 60000 >> test.txt
  $ mantis train -o pred --inputs train.txt --repeat 3 --metric instructions --threshold 0.1 prog.c > log.txt
  $ sed '/^gate: trained on/q' log.txt | grep -E '^(gate|sampled features: left out)' | sed -E 's/[0-9][0-9.e+]*%/N%/g; s/round [0-9]+/round N/; s/the [0-9]+ judged/the N judged/; s/at [0-9.e+]+ or more/at G or more/; s/of [0-9.]+ points/of N points/; s/in the (kept|cheapest) way/in the W way/'
  sampled features: left out from round N on: the N judged all cost more than the threshold (the least N%: the program's fixed work, run on two samples)
  gate: the samples cost N% of the program's time on average, N% on the 14 inputs the model predicts at G or more (in the W way): pred/long is trained on them
  gate: trained on 14 of the 24 inputs, those the gate lets through
  $ grep -E '^gate: (-|on those)' log.txt | sed -E 's/[0-9][0-9.e+]*%/N%/g; s/of [0-9.]+ points/of N points/'
  gate: ---- the end of pred/long's training ----
  gate: on those inputs, held out, pred/long's model errs N% and this one N% (a standard error of N points)

The decisions: the first model reads the file's size and content (no evaluator, nothing run on
the samples); the gate lets through the fourteen long files, and no short one, with the samples'
cost under the threshold there and far over it on all; the second model (pred/long) reads
sampled features, accepted on those fourteen inputs' samples at a cost under the threshold,
errs less than the first on them, each held out, by more than a standard error of the
difference (weighed input by input: each final choice records its held-out error on every
training input by its line, and its ratio, actual over predicted, by which a widened gate's
PRED/long sets its interval), and shares the first's build; the short files' samples cost too
much for the gate to widen over them:

  $ cat > decisions.py <<'PY'
  > import json, os
  > info = json.load(open("pred/predictor.json"))
  > model = json.load(open("pred/model.json"))
  > gate = json.load(open("pred/train.json"))["gate"]
  > print(info["evaluator"], info["sampled"], sorted(f["name"] for f in model["features"]))
  > print(gate["kept"], gate["inputs"], gate["cost"] < 0.1 < gate["cost_all"], info["gate"] == {"at_least": gate["at_least"], "predictor": "long"})
  > long = json.load(open("pred/long/predictor.json"))
  > names = [f["name"] for f in json.load(open("pred/long/model.json"))["features"]]
  > print(long["gate"], long["ntrain"], long["sampled"]["cost"] < 0.1, len(names) > 0 and all(n.startswith(("sampled:", "sampled-larger:", "input:")) for n in names), any(n.startswith("sampled") for n in names))
  > print(os.readlink("pred/long/build"))
  > first, second = (json.load(open(p))["choice"]["held_out"] for p in ("pred/train.json", "pred/long/train.json"))
  > print(len(first["lines"]), sorted(second["lines"]) == sorted(json.load(open("pred/long/train.json"))["lines"]), set(second["lines"]) < set(first["lines"]))
  > mine = dict(zip(second["lines"], second["errors"])); theirs = dict(zip(first["lines"], first["errors"]))
  > weighed = gate["held_out"]
  > print(abs(weighed["long"] - sum(mine.values()) / 14) < 1e-6, abs(weighed["first"] - sum(theirs[l] for l in mine) / 14) < 1e-6, weighed["first"] - weighed["long"] > weighed["standard_error"] > 0)
  > print(all(abs(abs(1 - 1 / r) - e) < 1e-4 for h in (first, second) for r, e in zip(h["ratios"], h["errors"])), "widened" in gate)
  > PY
  $ python3 decisions.py
  None None ['input:repeats(data)', 'input:size(arg1)']
  True 14 True True
  None 14 True True True
  ../build
  24 True True
  True True True
  True False

On the held-out files, the long ones are predicted through pred/long, within 3%, and the short
ones by the file's size and content (a quarter and more off on some); the gate itself reads
them alone. The baselines follow the gate: Mantis-linear and partial and
bounded execution are those of the model that predicted each input:

  $ mantis eval pred --inputs test.txt --baselines --json 2> /dev/null > eval.json
  $ python3 -c 'import json; b = json.load(open("eval.json"))["baselines"]; print(b["linear"]["mre"] < 0.5, b["blackbox"]["mre"] > 0.05)'
  True True
  $ cat > held-out.py <<'PY'
  > import json
  > for s in json.load(open("pred/eval.json"))["samples"]:
  >     name = s["args"].split("/")[-1]
  >     e = abs(s["predicted"] - s["actual"]) / s["actual"]
  >     print(name, "sampled" if any(f.startswith("sampled") for f in s["features"]) else sorted(s["features"]), e < 0.03 if name.startswith("t") and not name.startswith("ts") else "")
  > PY
  $ python3 held-out.py
  t0.bin sampled True
  t1.bin sampled True
  t2.bin sampled True
  t3.bin sampled True
  t4.bin sampled True
  t5.bin sampled True
  ts0.bin ['input:repeats(data)', 'input:size(arg1)'] 
  ts1.bin ['input:repeats(data)', 'input:size(arg1)'] 
  ts2.bin ['input:repeats(data)', 'input:size(arg1)'] 
  ts3.bin ['input:repeats(data)', 'input:size(arg1)'] 
  $ mantis predict pred -- t1.bin | sed -n 3p
  gated: the input's features alone predict at least the gate, so pred/long predicted on the input's samples
  $ mantis predict pred -- ts1.bin | sed -n 3,4p | sed -E 's/ +[0-9.]+$/ V/'
  not gated: the input's features alone predict less than the gate, so they predicted; pred/long was not run
    input:size(arg1) V
  $ mantis predict pred --json -- t1.bin | grep '"gated"'
   "gated": true

A prediction reads only what it needs: the first model reads input features alone, so no
manifest, and PRED/long is opened only for an input it predicts. With both manifests broken, a
short input is still predicted, a long one is refused with PRED/long's named, and eval (which
opens everything) refuses at once:

  $ cp -r pred broken && echo '{' > broken/long/features.json && echo '{' > broken/features.json
  $ mantis-predict broken -- ts1.bin | sed -n 3p
  not gated: the input's features alone predict less than the gate, so they predicted; broken/long was not run
  $ mantis-predict broken -- t1.bin
  mantis: broken/long/features.json:2:0: string or '}' expected near end of file
  [1]
  $ mantis eval broken --inputs test.txt 2>&1 | sed -E 's/:[0-9]+:[0-9]+: .*/: (an error)/'
  mantis: broken/features.json: (an error)

A file that is missing is refused before the gate (whose model reads its size):

  $ mantis predict pred -- nothere.bin
  mantis: input file nothere.bin cannot be read (missing): the program would fail on this input; no prediction
  [1]

export-c writes both models into one file: the first decides with no child process, and
PRED/long's embedded sampled program runs only above the gate, so the exported function
predicts what mantis predict prints on either side of it, and refuses what it refuses; the
report says where the gate is:

  $ mantis export-c pred -o predict_gate.c
  wrote predict_gate.c: double gate_predict_stdin(int argc, char **argv, const char *input), double gate_predict(int argc, char **argv)
  $ grep -c -E '^static double gate_(first|long)\(' predict_gate.c
  2
  $ grep -c -E '^ \* The mantis predictor of .*/pred as one C file|^ \* With a gate: that model \(PRED/long\)' predict_gate.c
  2
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=gate_predict -o predict "$TESTDIR/data/predict-driver.c" predict_gate.c -lm
  $ ./predict t1.bin ts1.bin nothere.bin > mine.txt
  $ for f in t1.bin ts1.bin; do mantis predict pred --json -- $f | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ head -2 mine.txt | awk '{print $2}' | diff - theirs.txt
  $ tail -1 mine.txt
  nothere.bin nan No such file or directory
  $ mantis report pred -o report.html > /dev/null && grep -c '<p id="gate">' report.html
  1

The gate is sized by the sandboxed program's runs on the samples, which cost more than the
sliced evaluator PRED/long runs, so it is then widened over the inputs below it that PRED/long
never saw, where its predictions cost at most the threshold and err less than the first
model's, held out. With thirty middling files beside (60-600 KB) and a threshold of 10%, the
sandboxed runs let 24-25 inputs through; where PRED/long predicts the next ones for under 10%
of their time and better than the first model, the gate lets through five or more of them
besides, and none of the short files (whose samples cost 30% and more). PRED/long's interval
is then set by the held-out ratios of all those let through, its own training inputs' and the
others'. Whether it widens follows the host's process start, so the test checks what it did
either way (the decision itself is select_gate_widen's, tested in tests/unit/test_explore.c):
at 5% and 150-600 KB alone, where PRED/long cost 2-3% on a host whose process start was about
1 ms, it cost 4.5-19% on one where it is 2-3 ms and the gate did not widen; at 10% with the
smaller files too it widened 25 to 30-32 there, plain and under ASan alone, and did not in
the ASan run of one make check.

  $ python3 "$TESTDIR/data/bands.py" 5 20 md 150000 600000 > middle.txt
  $ python3 "$TESTDIR/data/bands.py" 6 10 mm 60000 150000 >> middle.txt
  $ cat train.txt middle.txt > wide.txt
  $ mantis train -o wide --inputs wide.txt --repeat 3 --metric instructions --threshold 0.1 prog.c > wide.log
  $ python3 -c '
  > import json
  > gate, info = json.load(open("wide/train.json"))["gate"], json.load(open("wide/predictor.json"))
  > long = json.load(open("wide/long/predictor.json")); interval = json.load(open("wide/long/model.json"))["interval"]
  > log, w = open("wide.log").read(), gate.get("widened")
  > if w: print(gate["inputs"] + 5 <= w["inputs"] <= 44, w["cost"] < 0.1, "gate: widened to %d inputs" % w["inputs"] in log, "wide/long\x27s interval, over the %d inputs" % w["inputs"] in log)
  > else: print(True, True, "gate: widened" not in log, "interval, over the" not in log)
  > print(info["gate"]["at_least"] == gate["at_least"], long["ntrain"] == gate["inputs"], interval["level"], interval["low"] < 1 < interval["high"])'
  True True True True
  True True 0.9 True
