Sampled features: where the work is in the content of a large input file, every program feature
that counts it costs the whole run, but a run on a small sample of the file counts it cheaply.
Here each byte equal to the one before starts an inner loop whose length depends on the hash of
everything before, so the inner loop's count can only be had by running it all (and the test
of equality reads the hash too, so that the number of repeats, which a slice could count by
reading the file, costs the run as well: on an AMD EPYC whose process starts are slow that
slice cost 9% against the sampled model's 10%, and the final choice wrote it); the files are
runs of bytes (0.6-1.8 MB) whose mean length differs from file to file, so the file's size alone
does not tell the work either. (The threshold is 50% so that the sampled runs, two process
start-ups on a run of some 50 ms, stay under it on a loaded machine; the evaluators of the
inner loop cost the run.)

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	unsigned long h = 5381;
  > 	int c, prev = -1;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while ((c = getc(f)) != EOF) {
  > 		if (h != 0x5eed5eed5eed5eedul && c == prev) { /* h first: the test needs the run */
  > 			for (unsigned long r = h % 64 + 32; r > 0; r--)
  > 				h = h * 33 + (unsigned long)c;
  > 		} else {
  > 			h ^= (unsigned long)c;
  > 		}
  > 		prev = c;
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ python3 "$TESTDIR/data/runs.py" 1 12 in 600000 1800000 > train.txt
  $ python3 "$TESTDIR/data/runs.py" 2 6 t 600000 1800000 > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.5 prog.c > log.txt
  $ grep -E '^sampled features: arg1' log.txt | sed -E 's/within [0-9.]+%/within N%/; s/, [0-9.]+% once/, N% once/; s/error [0-9.]+%/error N%/; s/cost [0-9.]+%/cost N%/; s/; [0-9.]+ s\)/; N s)/'
  sampled features: arg1, 1% (at least 8 KiB) in 8 pieces: the instruction count extrapolated within N% on the mean input, N% once rescaled (standard error N%), cost N%
  sampled features: arg1, 1% (at least 8 KiB) in 1 piece: the instruction count extrapolated within N% on the mean input, N% once rescaled (standard error N%), cost N%
  sampled features: arg1, 0.5% (at least 8 KiB) in 8 pieces: the instruction count extrapolated within N% on the mean input, N% once rescaled (standard error N%), cost N%
  sampled features: arg1, 0.5% (at least 8 KiB) in 1 piece: the instruction count extrapolated within N% on the mean input, N% once rescaled (standard error N%), cost N%
  sampled features: arg1, 0.25% (at least 8 KiB) in 8 pieces: the instruction count extrapolated within N% on the mean input, N% once rescaled (standard error N%), cost N%
  sampled features: arg1, 0.25% (at least 8 KiB) in 1 piece: the instruction count extrapolated within N% on the mean input, N% once rescaled (standard error N%), cost N%

The decisions: the model reads sampled features only, each accepted as a program feature is:
its evaluator (a slice of the feature it extrapolates) computed on every training input's
samples what the sandboxed program counted there, at a cost under the threshold; every program
feature the loop looked at was rejected for its cost (its evaluator runs the whole input).
predictor.json says how the input is sampled (of six ways, 8 pieces spread over the file or a
prefix at 1%, 0.5% and 0.25% of it, training keeps the smallest share whose extrapolated
instruction count, once rescaled, errs within one standard error of the best way's among
those whose runs cost at most 1.5 times the threshold: here 1%; since one extrapolates within
2%, no larger sample is tried, and the larger one has at least 8 KiB) and what runs
on the samples: PRED/sampled-evaluator, the slice of the model's sampled features; there is no
evaluator, so the predictor costs what the sampled runs cost:

  $ cat > decisions.py <<'PY'
  > import json
  > log = json.load(open("pred/train.json"))
  > info = json.load(open("pred/predictor.json"))
  > model = json.load(open("pred/model.json"))
  > names = sorted({f for t in model["terms"] for f in t["powers"]})
  > print(len(names) > 0, all(n.startswith(("sampled:", "sampled-larger:")) for n in names))
  > decided = {d["name"]: d for it in log["iterations"] if not it.get("exact") for d in it["decisions"]}
  > print(all(decided[n]["accepted"] and decided[n]["validated"] and decided[n]["cost"] <= 0.5 for n in names))
  > print(all(not d["accepted"] for d in decided.values() if not d["name"].startswith(("sampled:", "input:"))))
  > s = info["sampled"]
  > print(info["evaluator"], s["files"], s["fraction"], s["least"], s["chunks"] == log["sampling"]["chunks"], s["program"])
  > ev = log["sampling"]["evaluator"]
  > print(ev.get("reason"), ev["kept"], s["cost"] == log["sampling"]["cost"] == log["final"]["cost"] == info["cost"])
  > print(log["sampling"]["instructions_error"] < 0.03)
  > PY
  $ python3 decisions.py
  True True
  True
  True
  None arg1 0.01 8192 True sampled-evaluator
  None True True
  True

On six held-out files the instruction count is predicted within 3% (the black box, which sees
the file's size, errs by a quarter or more), and partial execution, which runs the program until
the features are final, is exact but costs the run:

  $ mantis eval pred --inputs test.txt --baselines --json 2> /dev/null > eval.json
  $ python3 -c 'import json; e = json.load(open("eval.json")); b = e["baselines"]; print(e["mre"] < 0.03, b["blackbox"]["mre"] > 0.25, b["partial_execution"]["cost"] > 1)'
  True True True
  $ mantis predict pred -- t1.bin | grep -c '^  sampled:'
  1

mantis serve runs the sampled evaluator's shared-object form (PRED/sampled-evaluator.so, which
training validated on every input's samples, hosted) in its own process: the predictions are
mantis predict's to the bit, and cost less (eval's "in process" figure: the samples' runs
hosted by mantis-host, warm; here 2-3% of the program's time in training against 9-10% as
processes):

  $ python3 -c 'import json; s = json.load(open("pred/predictor.json"))["sampled"]; print(s["in_process"]["object"], 0 < s["in_process"]["cost"] < s["cost"])'
  sampled-evaluator.so True
  $ python3 -c 'import json; e = json.load(open("eval.json")); print(0 < e["inproc_cost"] < e["predict_cost"])'
  True
  $ grep -v '^#' test.txt | head -3 > requests.txt
  $ mantis serve pred < requests.txt > answers
  $ for f in $(cat requests.txt); do mantis predict pred --json -- $f > p-$f.json; done
  $ python3 -c 'import json; a = [json.loads(l) for l in open("answers")]; r = open("requests.txt").read().split(); print([x["samples_in_process"] for x in a], all(x["prediction"] == json.load(open("p-" + f + ".json"))["prediction"] for x, f in zip(a, r)))'
  [True, True, True] True

A prediction reads PRED/features.json, the build's manifest cut to the features the model's
sampled ones extrapolate, not the build's every feature, nor the program's instruction count,
which eval measures (PRED/instructions.json); a predictor trained before it existed reads the
build's, to the same prediction:

  $ python3 -c 'import json; names = lambda p: sorted(x["name"] for x in json.load(open(p))["features"]); m = json.load(open("pred/model.json")); print(names("pred/features.json") == sorted({n["name"][len("sampled:"):] for n in m["features"]}), names("pred/instructions.json"), len(names("pred/build/features.json")) > 50)'
  True ['bycount:(program):-:0:total'] True
  $ mantis predict pred --json -- t1.bin | grep '"prediction"' > cut.txt
  $ mv pred/features.json features.json.kept
  $ mantis predict pred --json -- t1.bin | grep '"prediction"' | diff cut.txt -
  $ mv features.json.kept pred/features.json

The sampled file must be there and readable, or there is no prediction:

  $ mantis predict pred -- nothere.bin
  mantis: input file nothere.bin cannot be read (missing): the program would fail on this input; no prediction
  [1]
  $ mantis predict pred
  mantis: the input has no arg1, whose samples the model reads; no prediction
  [1]

mantis export-c embeds the program that runs on the samples and makes them as mantis does, so
the exported function predicts exactly what mantis predict prints (17 significant digits read
back to the same double), and refuses what it refuses:

  $ mantis export-c pred -o predict_runs.c
  wrote predict_runs.c: double runs_predict_stdin(int argc, char **argv, const char *input), double runs_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=runs_predict -o predict "$TESTDIR/data/predict-driver.c" predict_runs.c
  $ ./predict t0.bin t3.bin nothere.bin - . > mine.txt
  $ for f in t0.bin t3.bin; do mantis predict pred --json -- $f | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'; done > theirs.txt
  $ head -2 mine.txt | awk '{print $2}' | diff - theirs.txt
  $ tail -3 mine.txt
  nothere.bin nan No such file or directory
  - nan No such file or directory
  . nan Is a directory

predictor.json's "smaller" says how many times the larger sample is the smaller (4 when absent,
as in predictors made before it; training may keep 2, below). Predicting and the export sample
alike under it, and a value under 2 is refused:

  $ cp -r pred halfpred
  $ python3 -c 'import json; p = json.load(open("halfpred/predictor.json")); p["sampled"]["smaller"] = 2; json.dump(p, open("halfpred/predictor.json", "w"))'
  $ mantis export-c halfpred -o predict_half.c --name half > /dev/null
  $ grep -c 'SMALLER = 2,' predict_half.c
  1
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=half_predict -o half "$TESTDIR/data/predict-driver.c" predict_half.c
  $ ./half t0.bin | awk '{print $2}' > mine.txt
  $ mantis predict halfpred --json -- t0.bin | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])' | diff mine.txt -
  $ mantis predict pred --json -- t0.bin | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])' | diff -q mine.txt - > /dev/null
  [1]
  $ python3 -c 'import json; p = json.load(open("halfpred/predictor.json")); p["sampled"]["smaller"] = 1; json.dump(p, open("halfpred/predictor.json", "w"))'
  $ mantis predict halfpred -- t0.bin
  mantis: halfpred/predictor.json: "sampled": smaller must be an integer of 2 or more (the larger sample over the smaller)
  [1]

predictor.json's "align" says where a binary file's pieces start: at multiples of 16 bytes, so
that records of up to 16 bytes stay whole (a WAV file's samples), or at any byte where it is
absent, as in predictors made before it, which sample so still. Predicting and the export
sample alike under it, and an alignment under 1 is refused:

  $ cp -r pred oldpred
  $ python3 -c 'import json; p = json.load(open("oldpred/predictor.json")); print(p["sampled"]["align"]); del p["sampled"]["align"]; json.dump(p, open("oldpred/predictor.json", "w"))'
  16
  $ mantis export-c oldpred -o predict_old.c --name old > /dev/null
  $ grep -c 'ALIGN = 1,' predict_old.c
  1
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=old_predict -o old "$TESTDIR/data/predict-driver.c" predict_old.c
  $ ./old t0.bin | awk '{print $2}' > mine.txt
  $ mantis predict oldpred --json -- t0.bin | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])' | diff mine.txt -
  $ mantis predict pred --json -- t0.bin | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])' | diff -q mine.txt - > /dev/null
  [1]
  $ python3 -c 'import json; p = json.load(open("oldpred/predictor.json")); p["sampled"]["align"] = 0; json.dump(p, open("oldpred/predictor.json", "w"))'
  $ mantis predict oldpred -- t0.bin
  mantis: oldpred/predictor.json: "sampled": align must be an integer of 1 or more (the bytes a binary file's pieces start at a multiple of)
  [1]

A sampled feature that describes the input rather than grows with it (a value's mean, its first
value) is offered twice: extrapolated as a count is, and as it is on the larger sample
(sampled-larger:), since the line through two samples multiplies the difference of their means
by 133. Here a predictor edited to read the mean byte that prog.c's getc returns (value c.mean,
counted by the sandboxed program: the sampled evaluator slices the model's own features)
predicts exactly the mean of the larger sample's bytes and its EOF (-1), as its export-c does;
the same feature extrapolated is another value (here under zero: predict warns and gives the
least training value):

  $ cp -r pred meanpred
  $ rm meanpred/features.json
  $ cat > mean.py <<'PY'
  > import json, sys
  > feats = json.load(open("meanpred/build/features.json"))["features"]
  > name = sys.argv[1] + [f["name"] for f in feats if f["name"].startswith("value:main:") and f["name"].endswith(":c.mean")][0]
  > m = json.load(open("meanpred/model.json"))
  > m.update(intercept=0, degree=1, terms=[{"coef": 1.0, "powers": {name: 1}}],
  >          features=[{"name": name, "min": -1e9, "max": 1e9, "aliases": []}])
  > json.dump(m, open("meanpred/model.json", "w"))
  > p = json.load(open("meanpred/predictor.json"))
  > p["sampled"]["program"] = "build/sandboxed"
  > json.dump(p, open("meanpred/predictor.json", "w"))
  > s = p["sampled"]
  > data = open("t0.bin", "rb").read()
  > q = min(1, max(s["fraction"], s["least"] / len(data)))
  > length, record = q * len(data) / s["chunks"], s["align"]
  > while record > 1 and record * s["smaller"] > length:
  >     record //= 2
  > piece = max(1, int(length / (record * s["smaller"]) + 0.5)) * record * s["smaller"]
  > at = [int(len(data) * i / s["chunks"]) // s["align"] * s["align"] for i in range(s["chunks"])]
  > excerpt = b"".join(data[a:][:piece] for a in at)
  > print("%.9f" % ((sum(excerpt) - 1) / (len(excerpt) + 1)))
  > PY
  $ python3 mean.py sampled-larger: > want.txt
  $ mantis predict meanpred --json -- t0.bin | python3 -c 'import json, sys; print("%.9f" % json.load(sys.stdin)["prediction"])' | diff want.txt -
  $ mantis export-c meanpred -o predict_mean.c --name mean > /dev/null
  $ grep -c 'extrapolated(' predict_mean.c
  0
  [1]
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=mean_predict -o meanx "$TESTDIR/data/predict-driver.c" predict_mean.c
  $ ./meanx t0.bin | awk '{print $2}' > mine.txt
  $ mantis predict meanpred --json -- t0.bin | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])' | diff mine.txt -
  $ python3 mean.py sampled: > /dev/null
  $ mantis predict meanpred --json -- t0.bin 2> /dev/null | python3 -c 'import json, sys; v = json.load(sys.stdin)["prediction"]; print(abs(v - float(open("want.txt").read())) > 1e-3)'
  True

Where a stream's first bytes cost less than the rest (here a window that fills over the first
KiB of the file, as a compressor's does, up to 16 KiB as the file's first byte says), the line
through two samples of 1% misses: both lie in the warm-up. Nor does a power law of that line
(what training judges a way by, since the model rescales what it is given: each input
predicted by the law fitted to the others) come within 2%: how far the line misses depends on
the window, file by file. So training also raises the larger sample to 64 KiB, the smaller a
quarter of it (16 KiB, past the warm-up) and a half, and keeps the quarter: it extrapolates
better than 1% beyond a standard error, at a cost within the threshold, and as well as the
half, which costs more. 256 KiB is not tried, since 64 KiB is within 2% already. (The model
here reads the program's count on the samples; the way kept is what predictions sample with,
train.json's "least" and "smaller".)

  $ cat > warm.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	unsigned long h = 0, pos = 0, window = 0;
  > 	int c, prev = -1;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while ((c = getc(f)) != EOF) {
  > 		if (pos == 0) /* the header's first byte sets the window: up to 16 KiB */
  > 			window = (unsigned long)(c + 1) * 16384 / 256;
  > 		if (c == prev) { /* a match, looked up in the window, once it is full */
  > 			for (unsigned long r = (pos < window ? pos : window) / 64 + h % 8; r > 0; r--)
  > 				h = h * 33 + (unsigned long)c;
  > 		}
  > 		h ^= (unsigned long)c;
  > 		prev = c;
  > 		pos++;
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ mantis train -o wpred --inputs train.txt --repeat 1 --metric instructions --threshold 0.5 warm.c | grep -E '^sampled features: arg1, ' | sed -E 's/: the instruction.*//'
  sampled features: arg1, 1% (at least 8 KiB) in 8 pieces
  sampled features: arg1, 1% (at least 8 KiB) in 1 piece
  sampled features: arg1, 0.5% (at least 8 KiB) in 8 pieces
  sampled features: arg1, 0.5% (at least 8 KiB) in 1 piece
  sampled features: arg1, 0.25% (at least 8 KiB) in 8 pieces
  sampled features: arg1, 0.25% (at least 8 KiB) in 1 piece
  sampled features: arg1, 1% (at least 64 KiB) in 8 pieces
  sampled features: arg1, 1% (at least 64 KiB) in 1 piece
  sampled features: arg1, 1% (at least 64 KiB) in 8 pieces, the smaller sample 1/2 of it
  sampled features: arg1, 1% (at least 64 KiB) in 1 piece, the smaller sample 1/2 of it
  $ python3 -c 'import json; t = json.load(open("wpred/train.json"))["sampling"]; e = [x["instructions_error"]["mean"] for x in t["trials"]]; print(min(e[:6]) > 0.2, max(e[6:]) < 0.02, t["least"], t["fraction"], t["smaller"], t["trials"][6]["share"] > 4 * t["trials"][0]["share"])'
  True True 65536 0.01 4 True

Where the window's size is the same in every file, the line misses by the same factor in each
(the samples' bytes alike), and the power law fitted to the 0.25% ways' line predicts each
input within 2%: the smallest way is kept, and no larger one is tried:

  $ sed 's/(unsigned long)(c + 1) \* 16384 \/ 256/16384/' warm.c > fixed.c
  $ mantis train -o fpred --inputs train.txt --repeat 1 --metric instructions --threshold 0.5 fixed.c | grep -E '^sampled features: [0-9]+ vary' | sed -E 's/, the cheapest.*//'
  sampled features: [0-9]+ vary over the inputs \(0.25% \(at least 8 KiB\) in (8 pieces|1 piece) (re)
  $ python3 -c 'import json; t = json.load(open("fpred/train.json"))["sampling"]; e = [(x["instructions_error"]["extrapolated"], x["instructions_error"]["mean"]) for x in t["trials"]]; print(len(e), min(r for r, _ in e) > 0.4, max(m for _, m in e[4:]) < 0.02)'
  6 True True

With a window of up to 32 KiB, a quarter of 64 KiB still lies in the warm-up: the line through
16 and 64 KiB misses, the one through 32 and 64 KiB (the smaller a half) does not, and training
keeps the half at 64 KiB rather than a quarter of 256 KiB, which costs more:

  $ sed 's/16384/32768/g' warm.c > warm32.c
  $ mantis train -o w32pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.5 warm32.c | grep -E '^sampled features: [0-9]+ vary' | sed -E 's/; the sandboxed.*//'
  sampled features: [0-9]+ vary over the inputs \(1% \(at least 64 KiB\) in (8 pieces|1 piece), the smaller sample 1/2 of it, the cheapest way within one standard error of the best (re)
  $ python3 -c 'import json; t = json.load(open("w32pred/train.json"))["sampling"]; e = [x["instructions_error"]["mean"] for x in t["trials"]]; print(len(e), min(e[6:8]) > 0.02, max(e[8:]) < 0.01, t["least"], t["smaller"])'
  10 True True 65536 2

A program that needs the end of its file (a trailer) fails on a sample, so training offers no
sampled features and says why; with --sample 0 it does not try:

  $ sed 's/if (!f)/if (!f || fseek(f, -4, SEEK_END) != 0 || getc(f) != 69 || fseek(f, 0, SEEK_SET) != 0)/' prog.c > trailer.c
  $ for i in 0 1 2 3 4 5; do (cat in$i.bin; printf 'E...') > e$i.bin; echo e$i.bin; done > etrain.txt
  $ mantis train -o epred --inputs etrain.txt --repeat 1 --metric instructions --threshold 0.5 trailer.c | grep "^sampled" | sed -E "s/line [0-9]+/line N/"
  sampled features: none (sampling arg1, the program exited with status 1 on the larger sample (input line N))
  $ mantis train -o epred --inputs etrain.txt --repeat 1 --metric instructions --threshold 0.5 --sample 0 trailer.c | grep -c '^sampled'
  0
  [1]

When the model reads sampled features, training runs the loop again without them (its rounds
go on from the last), and the final choice also weighs that loop's model, the exact features
alone, if it costs less than the model: it needs no sampled runs (two process starts and the
samples' share of the work), and it is written if it errs within one standard error of the
best. Here a loop as long as the file's last byte tells (cheap to count: a seek to the end)
precedes the runs, and each byte is decoded (eight rounds of a bijection) before it is compared
with the one before: the model reads that loop's count, exactly, and the runs' work, sampled.
Without sampled features the loop finds the runs' own branch, which counts them exactly but
must read and decode the whole file: its evaluator costs more than the model's with the sampled
runs (about 21% against 6.5%), so it is no candidate, and the sampled model is written. (On a
loaded machine the sampled runs' two process starts can cost more than that: then the exact
model is a candidate, and the final choice weighs it.)

  $ cat > last.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	unsigned long h = 5381;
  > 	int c, prev = -1;
  > 
  > 	if (!f || fseek(f, -1, SEEK_END) != 0)
  > 		return 1;
  > 	for (unsigned long r = (unsigned long)getc(f) * 40000; r > 0; r--)
  > 		h = h * 31 + r;
  > 	rewind(f);
  > 	while ((c = getc(f)) != EOF) {
  > 		for (int k = 0; k < 8; k++) /* decode: a bijection of the byte */
  > 			c = ((c ^ (c >> 3)) * 167 + 13) & 255;
  > 		if (c == prev) {
  > 			for (unsigned long r = h % 64 + 32; r > 0; r--)
  > 				h = h * 33 + (unsigned long)c;
  > 		} else {
  > 			h ^= (unsigned long)c;
  > 		}
  > 		prev = c;
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ mantis train -o lpred --inputs train.txt --repeat 1 --metric instructions --threshold 0.5 last.c > llog
  $ grep '^exact: the loop' llog
  exact: the loop again without sampled features, for the final choice
  $ python3 - <<'PY'
  > import json, re
  > log = open("llog").read()
  > c = json.load(open("lpred/train.json"))["choice"]
  > m = [f["name"] for f in json.load(open("lpred/model.json"))["features"]]
  > kinds = sorted({x["features"] for x in c["candidates"]})
  > costly = re.search(r"^exact: no candidate \(its evaluator costs ([0-9.]+)%, the model's ([0-9.]+)%\)$", log, re.M)
  > cheap = re.search(r"^exact: a candidate at a cost of ([0-9.]+)% \(the model's ([0-9.]+)%\)$", log, re.M)
  > exact, model = map(float, (costly or cheap).groups())
  > print("a candidate exactly when it costs less:", bool(cheap) == (exact < model) == ("exact" in kinds))
  > sampled = json.load(open("lpred/predictor.json"))["sampled"]
  > print("no candidate, the sampled model written:", not costly or (c["chosen"], kinds, "branch:main:last.c:10:true" in m, any(n.startswith("sampled:") for n in m), sampled["program"]) == ("program", ["input", "program"], True, True, "sampled-evaluator"))
  > PY
  a candidate exactly when it costs less: True
  no candidate, the sampled model written: True

The runs on the samples pay the program's fixed work twice. Where that alone costs more than
the threshold (here a set-up loop the same on every input, on whose result the runs' work
depends, so every slice keeps it), the loop stops offering sampled features once six were
judged too costly and none accepted (lame's encoder set-up took 20 rounds and 48 minutes of
slicing to reject 135), and goes on with the program's and the input's:

  $ cat > setup.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	unsigned long h = 0;
  > 	int c, prev = -1;
  > 
  > 	if (!f)
  > 		return 1;
  > 	for (unsigned long r = 0; r < 10000000; r++) /* set-up: the same on every input */
  > 		h = h * 6364136223846793005ul + r;
  > 	while ((c = getc(f)) != EOF) {
  > 		if (c == prev) {
  > 			for (unsigned long r = h % 64 + 32; r > 0; r--)
  > 				h = h * 33 + (unsigned long)c;
  > 		} else {
  > 			h ^= (unsigned long)c;
  > 		}
  > 		prev = c;
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", h);
  > 	return 0;
  > }
  > C
  $ mantis train -o spred --inputs train.txt --repeat 1 --metric instructions setup.c | grep -E '^sampled features: left out' | sed -E 's/round [0-9]+/round N/; s/the [0-9]+ judged/the N judged/; s/[0-9.]+%/N%/'
  sampled features: left out from round N on: the N judged all cost more than the threshold (the least N%: the program's fixed work, run on two samples)
  $ python3 -c 'import json; t = json.load(open("spred/train.json")); d = t["sampling"]["dropped"]; m = json.load(open("spred/model.json")); print(d["judged"] >= 6, d["least_cost"] > 0.05, any(f["name"].startswith(("sampled:", "sampled-larger:")) for f in m["features"]))'
  True True False

A gate below a model of sampled features: the final choice writes such a model by its
held-out error and its cost averaged over the training inputs, so on the inputs predicted
shortest its samples may cost several times the threshold (two process starts and the
samples' share of a short run). There training weighs the best model without them (the input
features, free to evaluate) below a gate, as it does when the loop dropped the samples for
their cost (train-gate.t): where the samples cost more than the threshold on the inputs below
it (five or more), and do not err less there, held out, than that model by more than a
standard error (tests/unit/test_explore.c holds the rule). Here the work is in a file's high
bytes (128 or more), whose share no probe of the content tells (data/bands.py: each file of 64
byte values, a share of them high that differs from file to file; since session 52 the input
features' rate, with a base in the content, came within a standard error of the sampled
model on prog.c's runs, and was written), sixteen files of 0.6-1.8 MB and six of 20-60 KB, the
threshold 50%: the six short files' samples (8 KiB of each, a fifth and more) cost about their
runs, and there the sampled model errs less than the input features' by more than a standard
error (0.4% against 45%, a standard error of 11 points), so no gate is made and the sampled
model predicts every input:

  $ cat > high.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	unsigned long h = 5381;
  > 	int c;
  > 
  > 	if (!f)
  > 		return 1;
  > 	while ((c = getc(f)) != EOF) {
  > 		if (h != 0x5eed5eed5eed5eedul && c >= 128) { /* h first: the test needs the run */
  > 			for (unsigned long r = h % 64 + 32; r > 0; r--)
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
  $ python3 "$TESTDIR/data/bands.py" 7 16 long 600000 1800000 > gated.txt
  $ python3 "$TESTDIR/data/bands.py" 3 6 sm 20000 60000 >> gated.txt
  $ mantis train -o gpred --inputs gated.txt --repeat 1 --metric instructions --threshold 0.5 high.c > glog.txt
  $ grep -E '^gate' glog.txt | sed -E 's/[0-9][0-9.]*%/N%/g; s/of [0-9.]+ points/of N points/; s/the [0-9]+ inputs the input features.* predicts lowest/the M inputs the input features predict lowest/; s/: (they pay for their cost there|under the threshold)$/: (why)/'
  gate: none below the sampled model: its samples cost N% of the program's time on the M inputs the input features predict lowest, where it errs N% held out and that one N% (a standard error of N points): (why)
  $ python3 -c '
  > import json, re
  > t = json.load(open("gpred/train.json")); m = json.load(open("gpred/model.json"))
  > line = [l for l in open("glog.txt") if l.startswith("gate: none below")][0]
  > cost, mine, theirs, se = map(float, re.findall(r"([0-9.]+)(?:%| points)", line))
  > print("gate" in t, t["choice"]["chosen"], any(f["name"].startswith("sampled") for f in m["features"]))
  > print(int(re.search(r"on the ([0-9]+) inputs", line).group(1)) >= 5, cost <= 50 or theirs - mine > se)'
  False program True
  True True
