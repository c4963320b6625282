mantis train --in-process: the feedback loop judges each evaluator's cost as mantis serve pays
it, its shared-object form run warm in a process that hosts it, with no process start. The
program works n / d thousand steps (7-21 ms here); its instruction count is a line in the
steps, which an evaluator computes off the file's two numbers. As a process that evaluator
costs its start (12-14% of the program's time here), over the default threshold of 5%; in
process it costs 1.5-1.7%.

  $ cp "$TESTDIR/data/steps.c" prog.c
  $ for i in 1 2 3 4 5 6 7 8; do echo "$((15000+i*1500)) $((i%2+1))" > in$i.txt; echo in$i.txt >> train.txt; done
  $ echo "20000 2" > t1.txt

Judged as processes, every feature that tells the steps is rejected for its cost, and the model
is a constant:

  $ mantis train -o processes --inputs train.txt --repeat 3 --metric instructions --no-input-features --quiet prog.c
  $ cat > decisions.py <<'PY'
  > import json, sys
  > log = json.load(open(sys.argv[1] + "/train.json"))
  > for d in sorted(log["iterations"][0]["decisions"], key=lambda d: d["name"]):
  >     print(d["name"], "accepted" if d["accepted"] else "rejected", "in process" if d.get("in_process") else "as a process", "expensive" if d["cost"] > 0.05 else "cheap")
  > print("model:", log["final"]["model"], "| in process:", log.get("in_process", False), log["final"].get("in_process", False))
  > PY
  $ python3 decisions.py processes
  value:main:prog.c:7:steps.first rejected as a process expensive
  value:main:prog.c:7:steps.mean rejected as a process expensive
  value:main:prog.c:7:steps.sum rejected as a process expensive
  model: instructions = 1.538e+08 | in process: False False

Judged in process, they are accepted, and the model is exact:

  $ mantis train -o hosted --inputs train.txt --repeat 3 --metric instructions --no-input-features --in-process --quiet prog.c
  $ python3 decisions.py hosted
  value:main:prog.c:7:steps.first accepted in process cheap
  value:main:prog.c:7:steps.mean accepted in process cheap
  value:main:prog.c:7:steps.sum accepted in process cheap
  model: instructions = 32 + 1e+04 * value:main:prog.c:7:steps.sum | in process: True True
  $ printf 't1.txt\n' | mantis serve hosted | python3 -c 'import json, sys; a = json.load(sys.stdin); print(a["in_process"], round(a["prediction"]))'
  True 100000032

The final evaluator's executable is validated all the same (mantis predict runs it); the cost
predictor.json records is its shared-object form's:

  $ mantis predict hosted t1.txt | head -1
  100000032 instructions
  $ python3 -c 'import json; d = json.load(open("hosted/predictor.json")); print(d["cost"] == d["in_process"]["cost"] < 0.05)'
  True
