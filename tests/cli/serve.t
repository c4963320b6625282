mantis serve: a long-lived predictor that answers one request a line of stdin with one line of
JSON, its evaluator's shared-object form (PRED/evaluator.so) run in the server's own process.
The program (tests/cli/data/steps.c) reads n and d from its file and works n / d thousand
steps; its instruction count is a line in the steps, and the evaluator computes them without the
work, judged as serve runs it (--in-process: mantis help train; tests/cli/train-in-process.t). d
= 0 crashes the program (SIGFPE), and its evaluator too.

  $ cp "$TESTDIR/data/steps.c" prog.c
  $ for i in 1 2 3 4 5 6 7 8; do echo "$((30000+i*3000)) $((i%2+1))" > in$i.txt; echo in$i.txt >> train.txt; done
  $ echo "40000 2" > t1.txt; echo "7 0" > zero.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --no-input-features --threshold 0.03 --in-process --quiet prog.c
  $ python3 -c 'import json; print(json.load(open("pred/predictor.json"))["in_process"]["object"])'
  evaluator.so

Requests: two inputs, a missing file, a blank line, the crashing input, a line that does not
parse, and an input again. Every request gets its answer, in order; the crash is answered, and
the server then starts itself afresh (its state after a crash in its process is unknown) and
goes on with the next request. The predictions are the exact counts (10 instructions a step,
32 besides):

  $ printf 'in1.txt\nt1.txt\nmissing.txt\n\nzero.txt\n"unclosed\nt1.txt\n' | mantis serve pred > answers 2> errors; echo $?
  0
  $ cat errors
  mantis serve: starting afresh after request 5: its evaluator crashed or ran over its budget in this process
  $ cat > show.py <<'PY'
  > import json, sys
  > for line in open(sys.argv[1]):
  >     a = json.loads(line)
  >     if "error" in a:
  >         print(a["request"], "error:", a["error"][:60].strip())
  >     else:
  >         print(a["request"], a["in_process"], round(a["prediction"]), len(a["features"]), a["evaluator_seconds"] > 0)
  > PY
  $ python3 show.py answers
  1 True 165000032 1 True
  2 True 200000032 1 True
  3 error: input file missing.txt cannot be read (missing): the program
  4 error: the request names no input (a blank line or a comment)
  5 error: the evaluator crashed (signal 8): this input takes a path no
  6 error: request 6:1: unterminated quote
  7 True 200000032 1 True

Its predictions are mantis predict's, to the bit, as are those with the evaluator run as a
process (--processes):

  $ mantis predict pred --json t1.txt > p.json
  $ python3 -c 'import json; print(json.load(open("p.json"))["prediction"] == [json.loads(l) for l in open("answers")][6]["prediction"])'
  True
  $ printf 't1.txt\n' | mantis serve pred --processes > processes; python3 show.py processes
  1 False 200000032 1 True
  $ python3 -c 'import json; print(json.load(open("p.json"))["prediction"] == json.loads(open("processes").read())["prediction"])'
  True

No request is lost when the server starts afresh between two: with --max-rss 1 (MiB) it does so
after every request, handing the requests it read and did not answer yet to the next (in a memory
file), so that the next request is still there:

  $ printf 'in1.txt\nt1.txt\nin1.txt\n' | mantis serve pred --max-rss 1 > answers 2> errors; python3 show.py answers; grep -c 'passed --max-rss' errors
  1 True 165000032 1 True
  2 True 200000032 1 True
  3 True 165000032 1 True
  3

A predictor whose evaluator has no shared-object form is served by processes, with a warning:

  $ python3 -c 'import json; d = json.load(open("pred/predictor.json")); del d["in_process"]; json.dump(d, open("pred/predictor.json", "w"))'
  $ printf 't1.txt\n' | mantis serve pred > answers; python3 show.py answers
  mantis serve: the evaluator runs as a process: pred/predictor.json: the evaluator has no shared-object form validated in training (trained before it existed, or refused: train's log says why)
  1 False 200000032 1 True

Usage errors:

  $ mantis serve
  mantis serve: give the predictor directory (made by mantis train)
  See 'mantis help serve'.
  [2]
  $ mantis serve pred --budget 0
  mantis serve: --budget: '0' is not a positive number of seconds
  See 'mantis help serve'.
  [2]
