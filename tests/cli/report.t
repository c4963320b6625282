mantis report and mantis export-c on a predictor trained in seconds (the program of train.t:
the number of hash steps gives the exact instruction count but costs the whole run, so the
loop settles on a cheap feature; threshold 20% so that a loaded machine cannot reject it;
--no-input-features, or the file's size alone would do, with no evaluator to export).

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
  $ for i in 1 2 3; do seq $((i*777)) $((i*777+i*30)) > t$i.txt; done
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --threshold 0.2 --no-input-features --quiet prog.c

Without eval.json the page says how to get the scatter, and the learning curve is measured
on held-out training inputs, every 4th:

  $ mantis report pred
  wrote pred/report.html
  $ grep -o 'id="[a-z-]*"' pred/report.html | grep -v 'round-\|feature-' | sort -u | tr '\n' ' '; echo
  id="accuracy" id="choice" id="cost" id="cost-line" id="curve" id="curve-method" id="curve-table" id="early" id="final" id="formula" id="interval" id="log" id="model" id="no-eval" id="overview" id="steps" 
  $ python3 -c 'import json; i = json.load(open("pred/model.json"))["interval"]; print("%.0f%% of the actual values lay within %.3gx to %.3gx the prediction" % (100 * i["level"], i["low"], i["high"]))' > want
  $ grep -c -F -f want pred/report.html
  1
  $ grep -o 'run <code>mantis eval pred --inputs FILE</code> to see predicted vs actual' pred/report.html
  run <code>mantis eval pred --inputs FILE</code> to see predicted vs actual
  $ grep -o 'held-out training inputs</span>, as there is no eval.json: every 4th training input (2: line 4, line 8)' pred/report.html
  held-out training inputs</span>, as there is no eval.json: every 4th training input (2: line 4, line 8)

The rounds above are whatever the loop did on this machine; what the page says of the model,
its features, their source, the costs and every decision must be what PRED holds:

  $ cat > check.py <<'PY'
  > import html, json, sys
  > page = open(sys.argv[1]).read()
  > model = json.load(open("pred/model.json"))
  > info = json.load(open("pred/predictor.json"))
  > log = json.load(open("pred/train.json"))
  > manifest = {f["name"]: f for f in json.load(open("pred/build/features.json"))["features"]}
  > src = open("prog.c").read().split("\n")
  > esc = lambda s: html.escape(s).replace("&#x27;", "&#39;")
  > ok = []
  > for i, mf in enumerate(model["features"], 1):
  >     f = manifest[mf["name"]]
  >     ok.append('<a href="#feature-%d">%s</a>' % (i, esc(f["name"])) in page)
  >     ok.append("<tr><th>location</th><td>prog.c:%d</td></tr>" % f["line"] in page)
  >     ok.append("<tr><th>function</th><td>%s</td></tr>" % f["function"] in page)
  >     ok.append("<tr><th>kind</th><td>%s</td></tr>" % f["kind"] in page)
  >     ok.append("<tr><th>description</th><td>%s</td></tr>" % esc(f["description"]) in page)
  >     ok.append('<span class="hit"><i>%d</i>%s</span>' % (f["line"], esc(src[f["line"] - 1])) in page)
  > ok.append("costs <b>%.2f%%</b> of the program" % (100 * info["cost"]) in page)
  > ok.append("the threshold was 20.00%" in page)
  > ok.append(page.count('<h3 id="round-') == info["iterations"] == len(log["iterations"]))
  > for it in log["iterations"]:
  >     for d in it["decisions"]:
  >         ok.append(esc(d["name"]) in page and esc(d.get("reason", "")) in page)
  > early = log["rejected_before_slicing"]
  > ok.append("Rejected before slicing: %d feature" % len(early) in page)
  > ok.append(all(esc(d["name"]) in page for d in early))
  > choice = log["choice"]
  > rows = page.split('<table class="choice">')[1].split("</table>")[0].split("<tr>")[2:]
  > ok.append(len(rows) == len(choice["candidates"]) == 3)  # the program's, degrees 1 to 3
  > ok.append([">written<" in r for r in rows] == [c["degree"] == choice["degree"] for c in choice["candidates"]])
  > ok.append(all("%.2f%%" % (100 * c["cv"]) in r for r, c in zip(rows, choice["candidates"])))
  > print(len(ok) > 10, all(ok), [i for i, b in enumerate(ok) if not b])
  > PY
  $ python3 check.py pred/report.html
  True True []

eval.json, as mantis eval writes it, here made by hand so that the numbers are known: every
prediction 20% under the actual value, and one input that failed with a reason full of
markup, which the page must escape:

  $ cat > mkeval.py <<'PY'
  > import json, subprocess
  > samples = []
  > for line, f in enumerate(["t1.txt", "t2.txt", "t3.txt"], 1):
  >     p = json.loads(subprocess.check_output(["mantis", "predict", "pred", "--json", "--", f]))
  >     samples.append({"line": line, "args": f, "ok": True, "actual": p["prediction"] * 1.25,
  >                     "predicted": p["prediction"], "cost": 0.02, "features": p["features"]})
  > why = "the program crashed (signal 11) <oops>"
  > samples.append({"line": 4, "args": "<script>alert(1)</script> & more", "ok": False, "why": why})
  > summary = {"metric": "instructions", "n": 3, "mre": 0.2, "median_re": 0.2, "max_re": 0.2,
  >            "lt15": 0.0, "lt30": 1.0, "predict_cost": 0.0234, "noise_floor": 0.0,
  >            "out_of_range": 0, "interval_level": 0.9, "interval_coverage": 2 / 3,
  >            "failed": [{"line": 4, "reason": why}]}
  > json.dump({"inputs": "/somewhere/test.txt", "metric": "instructions", "date": "2026-01-02T03:04:05Z",
  >            "samples": samples, "summary": summary}, open("pred/eval.json", "w"))
  > PY
  $ python3 mkeval.py
  $ mantis report pred -o report.html
  wrote report.html
  $ sed -n '/id="eval-summary"/,/<\/table>/p' report.html | grep -o '<tr><th>[^<]*</th><td class="n">[^<]*</td></tr>' | sed 's/<[^>]*>/ /g; s/  */ /g'
   inputs compared 3 
   mean relative error |A &minus; E| / A 20.00% 
   median relative error 20.00% 
   largest relative error 20.00% 
   inputs within 15% (LT15) 0.00% 
   inputs within 30% (LT30) 100.00% 
   prediction cost (evaluator time / program time) 2.34% 
   noise floor (two measurements of A) 0.00% 
   actual values inside the 90% interval 67% 
   inputs predict warned about (a feature outside its training range, or the model at zero or less) 0 
  $ grep -c 'class="point"><title>line' report.html
  3
  $ grep -c 'class="ideal"' report.html
  2

The interval's two edges (predicted = actual / high and actual / low) and their legend:

  $ grep -c 'class="band"' report.html
  3
  $ grep -c '<script' report.html || true
  0
  $ grep -o ' src="[^"]*"\| href="[^#][^"]*"\|url(' report.html
  [1]
  $ grep -o '&lt;script&gt;alert(1)&lt;/script&gt; &amp; more\|input line 4: no comparison: the program crashed (signal 11) &lt;oops&gt;' report.html
  input line 4: no comparison: the program crashed (signal 11) &lt;oops&gt;
  &lt;script&gt;alert(1)&lt;/script&gt; &amp; more
  $ grep -o 'on the 3 inputs of eval.json (through the feature values eval recorded); 1 input of eval.json without an actual value or a model feature left out' report.html
  on the 3 inputs of eval.json (through the feature values eval recorded); 1 input of eval.json without an actual value or a model feature left out
  $ grep -o 'On the inputs of eval.json: 2.34%' report.html
  On the inputs of eval.json: 2.34%
  $ python3 check.py report.html
  True True []

The learning curve: refits on the first 5 and all 8 training inputs, each with its error:

  $ sed -n '/id="curve-table"/,/<\/table>/p' report.html | grep -o '<tr><td class="n">[0-9]*</td><td class="n">[0-9.]*%</td></tr>' | sed 's/<[^>]*>/ /g; s/  */ /g; s/[0-9.]*%/P%/'
   5 P% 
   8 P% 

Rendered by headless Chromium, the page is a 1200 x 2000 screenshot with text, tables and
the scatter's points on it:

  $ timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$PWD/profile" --screenshot="$PWD/report.png" --window-size=1200,2000 "file://$PWD/report.html" > chromium.log 2>&1 || cat chromium.log
  $ cat > png.py <<'PY'
  > from PIL import Image
  > im = Image.open("report.png").convert("RGB")
  > px = list(im.getdata())
  > ink = sum(1 for p in px if min(p) < 200) / len(px)
  > # the scatter's points: #2763c4 at 75% over the plot's near-white background
  > points = sum(1 for r, g, b in px if 70 < r < 115 and 115 < g < 160 and b > 195)
  > print(im.size, ink > 0.02, len(set(px)) > 50, points >= 30)
  > PY
  $ /usr/bin/python3 png.py
  (1200, 2000) True True True

The source is looked for where train ran; elsewhere the page says it was not found:

  $ cp -r pred moved && sed -i '1s|.*|/nowhere|' moved/build/program.txt
  $ mantis report moved > /dev/null && grep -o 'source not found ([^)]*)' moved/report.html
  source not found (/nowhere/prog.c cannot be read)

Errors:

  $ mantis report
  mantis report: give the predictor directory (made by mantis train)
  See 'mantis help report'.
  [2]
  $ mantis report pred other
  mantis report: one predictor directory only ('pred' and 'other')
  See 'mantis help report'.
  [2]
  $ mantis report nowhere
  mantis: nowhere/predictor.json: missing (is this a directory made by mantis train?)
  [1]
  $ echo '{"samples": [' > moved/eval.json && mantis report moved
  mantis: moved/eval.json:2:0: ']' expected near end of file
  [1]

mantis export-c writes the predictor as one C file; compiled with strict warnings into a
program that calls hash_predict (tests/cli/data/predict-driver.c: a scheduler's call per
argument), it predicts what mantis predict predicts:

  $ mantis export-c pred -o predict_hash.c
  wrote predict_hash.c: double hash_predict_stdin(int argc, char **argv, const char *input), double hash_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=hash_predict -o predict "$TESTDIR/data/predict-driver.c" predict_hash.c
  $ seq 1 400 > big.txt
  $ ./predict t1.txt t2.txt t3.txt big.txt in5.txt - > mine.txt
  $ cat > compare.py <<'PY'
  > import json, subprocess
  > model = json.load(open("pred/model.json"))
  > names = [f["name"] for f in model["features"]]
  > lo = [f["min"] for f in model["features"]]
  > hi = [f["max"] for f in model["features"]]
  > def poly(x):  # model.json's polynomial, term by term
  >     y = model["intercept"]
  >     for t in model["terms"]:
  >         v = 1.0
  >         for name, k in t["powers"].items():
  >             for _ in range(k):
  >                 v *= x[names.index(name)]
  >         y += t["coef"] * v
  >     return y
  > def slope(e, i):  # the polynomial's partial derivative in feature i at e
  >     s = 0.0
  >     for t in model["terms"]:
  >         k = t["powers"].get(names[i], 0)
  >         v = float(k)
  >         for name, p in t["powers"].items():
  >             v *= e[names.index(name)] ** (p - (name == names[i]))
  >         s += t["coef"] * v
  >     return s
  > def continued(x):  # past the training range, linear from its edge
  >     e = [min(max(v, lo[i]), hi[i]) for i, v in enumerate(x)]
  >     return poly(e) + sum(slope(e, i) * (x[i] - e[i]) for i in range(len(x)))
  > for line in open("mine.txt"):
  >     arg, mine, status = line.split()
  >     mine = float(mine)
  >     args = [arg] if arg != "-" else []
  >     out = subprocess.run(["mantis", "predict", "pred", "--json", "--"] + args, capture_output=True, text=True).stdout
  >     printed = json.loads(out)["prediction"]
  >     text = subprocess.run(["mantis", "predict", "pred", "--"] + args, capture_output=True, text=True).stdout
  >     x = {l.split()[0]: float(l.split()[1]) for l in text.split("\n")[1:] if l.startswith("  ")}
  >     v = [x[n] for n in names]
  >     full = continued(v)
  >     outside = any(not lo[i] <= v[i] <= hi[i] for i in range(len(v)))
  >     floored = full <= 0 and full < model["floor"]
  >     full = model["floor"] if floored else full
  >     print(arg, status, mine == printed, abs(mine - full) <= 1e-9 * abs(full), outside, floored)
  > PY
  $ python3 compare.py
  t1.txt ok True True False False
  t2.txt ok True True False False
  t3.txt ok True True False False
  big.txt ok True True True False
  in5.txt ok True True False False
  - ok True True True True

(mantis predict --json prints 17 significant digits, which read back to the same double: the
exported value is exactly what it prints, and the model of the features mantis predict computed.
The fifth column: a feature outside its training range, past which the model goes on linearly
from the range's edge, in both: big.txt, and "-", a run without arguments. The last: the model
at zero or less, raised to its floor, the least count of the training inputs, in both: "-",
whose line, at 0 lines read, is below zero; mantis predict says so:)

  $ mantis predict pred -- 2>&1 | grep warning
  mantis predict: warning: branch:main:prog.c:11:true = 0 is outside its training range [20, 160]: the model goes on linearly past the range; the model gives zero or less: predicted as 1.53704e+08, the least value of the training inputs

Where mantis predict refuses, the function returns NaN and says why in errno:

  $ ./predict missing.txt
  missing.txt nan No such file or directory
  $ mantis predict pred -- missing.txt
  mantis: input file missing.txt cannot be read (missing): the program would fail on this input; no prediction
  [1]

A predictor without an evaluator (a constant model) exports a constant:

  $ mkdir -p const/build && cp pred/build/features.json const/build/
  $ python3 -c 'import json; json.dump({"metric": "instructions", "threshold": 0.2, "cost": 0, "ntrain": 8, "iterations": 1, "evaluator": None}, open("const/predictor.json", "w")); json.dump({"algorithm": "constant", "metric": "instructions", "fit": "relative", "degree": 3, "cv_folds": 0, "intercept": 12345.5, "terms": [], "features": [], "n_train": 8, "n_test": 0, "train_mre": 0.5, "test_mre": None}, open("const/model.json", "w"))'
  $ mantis export-c const -o predict_const.c
  wrote predict_const.c: double const_predict_stdin(int argc, char **argv, const char *input), double const_predict(int argc, char **argv)
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=const_predict -o constant "$TESTDIR/data/predict-driver.c" predict_const.c && ./constant t1.txt
  t1.txt 12345.5 ok

A feature in fixed point (a floating-point variable's values: "shift": S in features.json) is
divided by 2^S in the exported C as in mantis predict; here every model feature gets a shift of 4:

  $ cp -r pred shifted && python3 -c 'import json; p = "shifted/features.json"; m = json.load(open(p)); used = {f["name"] for f in json.load(open("shifted/model.json"))["features"]}; [f.__setitem__("shift", 4) for f in m["features"] if f["name"] in used]; json.dump(m, open(p, "w"))'
  $ mantis export-c shifted -o predict_shifted.c
  wrote predict_shifted.c: double shifted_predict_stdin(int argc, char **argv, const char *input), double shifted_predict(int argc, char **argv)
  $ grep -c ' / 16;$' predict_shifted.c
  1
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=shifted_predict -o shiftedp "$TESTDIR/data/predict-driver.c" predict_shifted.c
  $ for f in t1.txt big.txt; do printf '%s %s\n' "$(./shiftedp $f | cut -d' ' -f2)" "$(mantis predict shifted --json -- $f 2> /dev/null | python3 -c 'import json, sys; print(repr(json.load(sys.stdin)["prediction"]))')"; done | awk '{ print ($1 + 0 == $2 + 0) ? "same" : "differ: " $0 }'
  same
  same
  $ [ "$(./shiftedp big.txt | cut -d' ' -f2)" != "$(./predict big.txt | cut -d' ' -f2)" ] && echo shifted
  shifted

A model that reads a program feature and an input feature (here a term over the file's size is
added to the model by hand) is exported with the evaluator and the input feature computed from
argv; it predicts bit for bit what mantis predict does:

  $ cp -r pred mixed && python3 -c 'import json; p = "mixed/model.json"; m = json.load(open(p)); m["features"].append({"name": "input:size(arg1)", "min": 1.0, "max": 1e9}); m["terms"].append({"coef": 0.25, "powers": {m["features"][0]["name"]: 1, "input:size(arg1)": 1}}); json.dump(m, open(p, "w"))'
  $ mantis export-c mixed -o predict_mixed.c
  wrote predict_mixed.c: double mixed_predict_stdin(int argc, char **argv, const char *input), double mixed_predict(int argc, char **argv)
  $ grep -c 'fexecve(fd\[0\]\|word_size(argv\[1\])\|readable_argument(argc, argv, 1)' predict_mixed.c
  3
  $ clang-14 -std=c11 -Wall -Wextra -Wpedantic -Werror -DPREDICT=mixed_predict -o mixedp "$TESTDIR/data/predict-driver.c" predict_mixed.c
  $ for f in t1.txt big.txt in5.txt; do printf '%s %s\n' "$(./mixedp $f | cut -d' ' -f2)" "$(mantis predict mixed --json -- $f 2> /dev/null | python3 -c 'import json, sys; print(repr(json.load(sys.stdin)["prediction"]))')"; done | awk '{ print ($1 + 0 == $2 + 0) ? "same" : "differ: " $0 }'
  same
  same
  same
  $ [ "$(./mixedp big.txt | cut -d' ' -f2)" != "$(./predict big.txt | cut -d' ' -f2)" ] && echo mixed
  mixed
  $ ./mixedp nothere.txt
  nothere.txt nan No such file or directory

Errors:

  $ mantis export-c pred
  mantis export-c: no output file (-o predict_NAME.c)
  See 'mantis help export-c'.
  [2]
  $ mantis export-c pred -o 9lives.c
  mantis export-c: '9lives' is not a C identifier to name NAME_predict by (give one with --name NAME)
  See 'mantis help export-c'.
  [2]
  $ mantis export-c pred -o 9lives.c --name nine && grep -c '^double nine_predict(' 9lives.c
  wrote 9lives.c: double nine_predict_stdin(int argc, char **argv, const char *input), double nine_predict(int argc, char **argv)
  2
