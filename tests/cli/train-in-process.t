mantis train --in-process: the feedback loop judges each evaluator's cost as mantis serve pays
it, its shared-object form run warm in a process that hosts it, with no process start. The
program (tests/cli/data/steps.c) works n / d thousand steps (26-86 ms here); its instruction
count is a line in the steps, which an evaluator computes off the file's two numbers. As a
process that evaluator costs its start (6-7% of the program's time here), over a threshold of
3%; in process it costs under 1% (under load, a preempted run can cost it 5 points more: the
lesser of a host's two runs is taken, and the programs run long enough that one such run
does not pass the threshold).

  $ cp "$TESTDIR/data/steps.c" prog.c
  $ for i in 1 2 3 4 5 6 7 8; do echo "$((30000+i*3000)) $((i%2+1))" > in$i.txt; echo in$i.txt >> train.txt; done
  $ echo "40000 2" > t1.txt

Judged as processes, every feature that tells the steps is rejected for its cost, and the model
is a constant:

  $ mantis train -o processes --inputs train.txt --repeat 3 --metric instructions --no-input-features --threshold 0.03 --quiet prog.c
  $ cat > decisions.py <<'PY'
  > import json, sys
  > log = json.load(open(sys.argv[1] + "/train.json"))
  > for d in sorted(log["iterations"][0]["decisions"], key=lambda d: d["name"]):
  >     print(d["name"], "accepted" if d["accepted"] else "rejected", "in process" if d.get("in_process") else "as a process", "expensive" if d["cost"] > 0.03 else "cheap")
  > print("model:", log["final"]["model"], "| in process:", log.get("in_process", False), log["final"].get("in_process", False))
  > PY
  $ python3 decisions.py processes
  value:main:prog.c:7:steps.first rejected as a process expensive
  value:main:prog.c:7:steps.mean rejected as a process expensive
  value:main:prog.c:7:steps.sum rejected as a process expensive
  model: instructions = 3.075e+08 | in process: False False

Judged in process, they are accepted, and the model is exact:

  $ mantis train -o hosted --inputs train.txt --repeat 3 --metric instructions --no-input-features --threshold 0.03 --in-process --quiet prog.c
  $ python3 decisions.py hosted
  value:main:prog.c:7:steps.first accepted in process cheap
  value:main:prog.c:7:steps.mean accepted in process cheap
  value:main:prog.c:7:steps.sum accepted in process cheap
  model: instructions = 32 + 1e+04 * value:main:prog.c:7:steps.sum | in process: True True
  $ printf 't1.txt\n' | mantis serve hosted | python3 -c 'import json, sys; a = json.load(sys.stdin); print(a["in_process"], round(a["prediction"]))'
  True 200000032

The final evaluator's executable is validated all the same (mantis predict runs it); the cost
predictor.json records is its shared-object form's:

  $ mantis predict hosted t1.txt | head -1
  200000032 instructions
  $ python3 -c 'import json; d = json.load(open("hosted/predictor.json")); print(d["cost"] == d["in_process"]["cost"] < 0.03)'
  True
