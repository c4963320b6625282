mantis profile, export and model on a target that misbehaves on some inputs.

  $ mantis instrument -o b "$TESTDIR/data/target.c" --schemes loop,branch,exit > /dev/null
  $ cat > inputs.txt <<'I'
  > # one of each fate, then work that grows
  > ok 1000
  > crash
  > hang
  > fail
  > ok 2000
  > ok 3000
  > ok 4000
  > I
  $ mantis profile b --inputs inputs.txt --repeat 2 --timeout 1 --quiet
  b/profile.db: 7 inputs: 4 complete, 3 failed, 0 pending (2 timing runs each)
  runs: 15 ok, 3 nonzero, 3 crash, 3 timeout
  recheck: 3 inputs run a second time with the instrumented build (training rejects the features that differ)
  noise: * (glob)
  pace: * (glob)

Every run is kept, with its fate:

  $ sqlite3 b/profile.db "SELECT i.text, r.kind, r.rep, r.status, r.exit_code, r.signal FROM runs r JOIN inputs i ON i.id = r.input WHERE r.status != 'ok' ORDER BY i.position, r.kind, r.rep"
  crash|features|0|crash|-1|11
  crash|time|0|crash|-1|11
  crash|time|1|crash|-1|11
  hang|features|0|timeout|-1|9
  hang|time|0|timeout|-1|9
  hang|time|1|timeout|-1|9
  fail|features|0|nonzero|3|0
  fail|time|0|nonzero|3|0
  fail|time|1|nonzero|3|0

Running the same command again resumes: nothing is run twice.

  $ mantis profile b --inputs inputs.txt --timeout 1 --quiet | head -1
  b/profile.db: 7 inputs: 4 complete, 3 failed, 0 pending (2 timing runs each)
  $ sqlite3 b/profile.db "SELECT count(*), count(DISTINCT input || kind || rep) FROM runs"
  24|24

Export and model use the complete inputs only:

  $ mantis export b > table.csv
  mantis export: 3 inputs left out (incomplete, crashed, timed out or exited non-zero; see mantis profile b --status)
  $ cut -d, -f1 table.csv
  input
  ok 1000
  ok 2000
  ok 3000
  ok 4000
  $ mantis model b --train-frac 1 --algo linear -o - 2>&1 | grep -E '^(mantis|train)'
  mantis model: 3 inputs of b/profile.db left out (incomplete, crashed, timed out or exited non-zero)
  train MRE   * on 4 samples (glob)

  $ mantis profile b --status --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["complete"], d["failed"], d["mismatched"], d["runs"])'
  4 3 0 {'ok': 15, 'nonzero': 3, 'crash': 3, 'timeout': 3}

An input on which the instrumented build ends unlike the original is called out:

  $ cp b/profile.db odd.db
  $ sqlite3 odd.db "UPDATE runs SET exit_code = 9, status = 'nonzero' WHERE kind = 'features' AND input = (SELECT id FROM inputs WHERE text = 'ok 1000')"
  $ mantis profile b --status --db odd.db | grep warning
  warning: on 1 input the instrumented build ended unlike the original (status or exit code): a transparency bug in mantis, please report it

A rebuilt program or a changed inputs file is refused; --new starts over and keeps the old one:

  $ echo 'ok 5000' >> inputs.txt
  $ mantis profile b --inputs inputs.txt --quiet
  mantis: b/profile.db was started with a different inputs file (or the file changed): use --new to start a new profile
  [1]
  $ mantis profile b --inputs inputs.txt --repeat 1 --timeout 1 --new --quiet 2>&1 | sed 's/db\.[0-9-]*/db.STAMP/'
  mantis: the previous profile is kept as b/profile.db.STAMP
  b/profile.db: 8 inputs: 5 complete, 3 failed, 0 pending (1 timing runs each)
  runs: 13 ok, 2 nonzero, 2 crash, 2 timeout
  recheck: 3 inputs run a second time with the instrumented build (training rejects the features that differ)
  $ mantis instrument -o b "$TESTDIR/data/target.c" --schemes loop > /dev/null
  $ mantis profile b --inputs inputs.txt --quiet
  mantis: b/profile.db profiles another build of the program (it was rebuilt since): use --new to start a new profile
  [1]

Bad input is refused with the file and line, and nothing stored changes:

  $ printf 'ok 10\nok 20 | tee x\n' > bad.txt
  $ mantis profile b --inputs bad.txt --new --quiet
  mantis: bad.txt:2: unsupported shell syntax '|' (quote it with '...' to pass it as an argument)
  [1]
  $ mantis profile b --inputs missing.txt
  mantis: cannot open inputs file missing.txt: No such file or directory
  [1]
  $ mantis profile nowhere --inputs inputs.txt
  mantis: cannot open nowhere/features.json: No such file or directory
  [1]
  $ mantis profile b --inputs inputs.txt --db /proc/profile.db --quiet
  mantis: cannot open /proc/profile.db: unable to open database file
  [1]
  $ mantis profile b --inputs inputs.txt --db no/such/dir/profile.db --quiet
  mantis: cannot open no/such/dir/profile.db: unable to open database file
  [1]
  $ printf 'this is not a database, just text that fills a page................' > corrupt.db
  $ mantis profile b --inputs inputs.txt --db corrupt.db --quiet
  mantis: corrupt.db is not a mantis profile database (file is not a database)
  [1]
  $ cat corrupt.db; echo
  this is not a database, just text that fills a page................
  $ mantis profile
  mantis profile: no build directory given
  See 'mantis help profile'.
  [2]
  $ mantis profile b --inputs inputs.txt --shard 3/2
  mantis profile: --shard: '3/2' is not I/N with 1 <= I <= N
  See 'mantis help profile'.
  [2]
