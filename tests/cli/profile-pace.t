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
  1: * (glob)
  2: * (glob)
  $ sqlite3 b/profile.db "SELECT count(DISTINCT o) FROM (SELECT rep, group_concat(input) o FROM (SELECT rep, input FROM runs WHERE kind = 'time' ORDER BY id) GROUP BY rep)"
  3

The times set by hand: each input's own (its id x 10 ms) times the machine's speed at that
run, wandering 15% over 20 runs or steady, and 1% of noise:

  $ cat > doctor.py <<'EOF'
  > import math, sqlite3, sys
  > db = sqlite3.connect(sys.argv[1])
  > runs = db.execute("SELECT id, input FROM runs WHERE kind = 'time' ORDER BY id").fetchall()
  > for k, (run, i) in enumerate(runs):
  >     speed = math.exp(0.15 * math.sin(2 * math.pi * k / 20)) if sys.argv[2] == "wander" else 1
  >     noise = 1 + 0.01 * ((k * 37) % 7 - 3) / 3
  >     db.execute("UPDATE runs SET wall = ? WHERE id = ?", (0.01 * i * speed * noise, run))
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
  noise: wall time varies 9.3% (median coefficient of variation); one run differs from the median of the others by 10.6% on average (noise floor)
  pace: with each run divided by the machine's speed of the moment (the runs made next to it), wall time varies 3.6%: a time model trains on the divided times
  $ mantis export b --db wander.db | python3 err.py wander.db
  medians of the runs 7.2% exported 2.1%
  $ mantis profile b --status --json --db wander.db | python3 -c 'import json,sys; d=json.load(sys.stdin); print(round(d["median_cv"], 3), round(d["paced_cv"], 3), d["paced"])'
  0.093 0.036 True

Where it holds steady, the neighbours' noise would add as much as it takes: kept as measured.

  $ cp b/profile.db steady.db && python3 doctor.py steady.db steady
  $ mantis profile b --status --db steady.db | grep -E '^pace'
  pace: with each run divided by the machine's speed of the moment (the runs made next to it), wall time would vary 0.5%: a time model trains on the times as measured
  $ mantis export b --db steady.db | python3 err.py steady.db
  medians of the runs 0.4% exported 0.4%

One round alone tells no pace:

  $ mantis profile b --inputs inputs.txt --repeat 1 --new --quiet 2>/dev/null | grep -cE '^(noise|pace)'
  0
  [1]
