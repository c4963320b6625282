The machine's speed of the moment, divided out of a profile's times (src/pace.c): the timing
rounds after the first run in a shuffled order, and a time metric is loaded with each run
divided by the pace the runs next to it met, where that lowers the spread.

  $ mantis instrument -o b "$TESTDIR/data/target.c" --schemes loop > /dev/null
  $ for i in $(seq 1 24); do echo "ok $((i * 100))"; done > inputs.txt
  $ mantis profile b --inputs inputs.txt --repeat 3 --quiet > /dev/null

The first round runs the inputs in order, the others each in its own order:

  $ sqlite3 b/profile.db "SELECT rep, input FROM runs WHERE kind = 'time' ORDER BY id" |
  >   awk -F'|' '{ order[$1] = order[$1] " " $2 } END { for (r = 0; r < 3; r++) print r ":" order[r] }'
  0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
  1: 8 21 22 13 24 23 12 4 6 17 19 16 5 20 11 9 7 10 14 2 15 1 3 18
  2: 1 5 11 13 18 14 4 15 7 19 20 6 2 8 3 21 12 9 17 10 16 22 24 23
  $ sqlite3 b/profile.db "SELECT count(DISTINCT o) FROM (SELECT rep, group_concat(input) o FROM (SELECT rep, input FROM runs WHERE kind = 'time' ORDER BY id) GROUP BY rep)"
  3

The times set by hand: each input's own (its id x 10 ms) times the machine's speed at that
run, wandering 15% over 20 runs or steady, and 1% of noise:

  $ cat > doctor.py <<'EOF'
  > import math, random, sqlite3, sys
  > db = sqlite3.connect(sys.argv[1])
  > runs = db.execute("SELECT id, input FROM runs WHERE kind = 'time' ORDER BY id").fetchall()
  > noise = random.Random(1)
  > for k, (run, i) in enumerate(runs):
  >     speed = math.exp(0.15 * math.sin(2 * math.pi * k / 20)) if sys.argv[2] == "wander" else 1
  >     db.execute("UPDATE runs SET wall = ? WHERE id = ?", (0.01 * i * speed * (1 + noise.gauss(0, 0.01)), run))
  > db.commit()
  > EOF
  $ cat > err.py <<'EOF'
  > import csv, sqlite3, statistics, sys
  > # The mean relative error against the inputs' own times (the whole scaled by the median
  > # ratio) of the medians of the runs in the database, and of the wall times exported.
  > def error(ratio):
  >     scale = statistics.median(ratio)
  >     return "%.1f%%" % (100 * statistics.mean(abs(x / scale - 1) for x in ratio))
  > db = sqlite3.connect(sys.argv[1])
  > raw = [statistics.median(w for (w,) in db.execute("SELECT wall FROM runs WHERE kind = 'time' AND input = ?", (i,)))
  >        / (0.01 * i) for (i,) in db.execute("SELECT id FROM inputs ORDER BY id")]
  > exported = [float(r["wall"]) / (0.01 * (n + 1)) for n, r in enumerate(csv.DictReader(sys.stdin))]
  > print("medians of the runs", error(raw), "exported", error(exported))
  > EOF

Where the machine wanders, the times are divided, and come nearer the inputs' own:

  $ cp b/profile.db wander.db && python3 doctor.py wander.db wander
  $ mantis profile b --status --db wander.db | grep -E '^(noise|pace)'
  noise: wall time varies 8.7% (median coefficient of variation); one run differs from the median of the others by 10.3% on average (noise floor)
  pace: with each run divided by the machine's speed of the moment (the runs made next to it), wall time varies 3.3%: a time model trains on the divided times
  $ mantis export b --db wander.db | python3 err.py wander.db
  medians of the runs 7.2% exported 2.8%
  $ mantis profile b --status --json --db wander.db | python3 -c 'import json,sys; d=json.load(sys.stdin); print(round(d["median_cv"], 3), round(d["paced_cv"], 3), d["paced"])'
  0.087 0.033 True

Where it holds steady, the neighbours' noise would add as much as it takes: kept as measured.

  $ cp b/profile.db steady.db && python3 doctor.py steady.db steady
  $ mantis profile b --status --db steady.db | grep -E "^(noise|pace)"
  noise: wall time varies 0.7% (median coefficient of variation); one run differs from the median of the others by 0.9% on average (noise floor)
  pace: with each run divided by the machine's speed of the moment (the runs made next to it), wall time would vary 0.8%: a time model trains on the times as measured
  $ mantis export b --db steady.db | python3 err.py steady.db
  medians of the runs 0.4% exported 0.4%

One round alone tells no pace:

  $ mantis profile b --inputs inputs.txt --repeat 1 --new --quiet 2>/dev/null | grep -cE '^(noise|pace)'
  0
  [1]
