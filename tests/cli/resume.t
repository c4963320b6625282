A profile killed with SIGKILL at three moments resumes to exactly every run, once each: a
feature run and 2 timing runs per input, and 3 recheck runs.

  $ mantis instrument -o b "$TESTDIR/data/target.c" --schemes loop,value > /dev/null
  $ for i in $(seq 1 200); do echo "ok $((i * 10))"; done > inputs.txt
  $ kill_after() { # runs recorded, then SIGKILL wherever the profile is
  >   mantis profile b --inputs inputs.txt --repeat 2 --quiet "${@:2}" > /dev/null 2>&1 & pid=$!
  >   until [ "$(sqlite3 b/profile.db 'SELECT count(*) FROM runs' 2>/dev/null)" -ge "$1" ] 2>/dev/null; do
  >     kill -0 $pid 2>/dev/null || { echo "the profile ended before $1 runs"; return; }; sleep 0.02
  >   done
  >   kill -9 $pid; wait $pid 2>/dev/null
  >   sqlite3 b/profile.db "SELECT count(*) >= $1 AND count(*) < 600 FROM runs"
  > }
  $ kill_after 60 -j 2
  1
  $ kill_after 250
  1
  $ kill_after 420
  1
  $ mantis profile b --inputs inputs.txt --repeat 2 --quiet | head -1
  b/profile.db: 200 inputs: 200 complete, 0 failed, 0 pending (2 timing runs each)
  $ sqlite3 b/profile.db "SELECT count(*), count(DISTINCT input || ':' || kind || ':' || rep) FROM runs; SELECT count(*) FROM counters; PRAGMA integrity_check"
  603|603
  203
  ok

Shards profiled apart and merged equal one profile of everything (same inputs, same features):

  $ head -20 inputs.txt > twenty.txt
  $ mantis profile b --inputs twenty.txt --shard 1/2 --db s1.db --repeat 1 --quiet | head -1
  s1.db: 20 inputs: 10 complete, 0 failed, 10 pending (1 timing runs each)
  $ mantis profile b --inputs twenty.txt --shard 2/2 --db s2.db --repeat 1 --quiet | head -1
  s2.db: 20 inputs: 10 complete, 0 failed, 10 pending (1 timing runs each)
  $ mantis profile merge merged.db s1.db s2.db
  $ mantis profile b --status --db merged.db | head -1
  merged.db: 20 inputs: 20 complete, 0 failed, 0 pending (1 timing runs each)
  $ mantis profile b --inputs twenty.txt --db whole.db --repeat 1 --quiet > /dev/null
  $ mantis export b --db merged.db | cut -d, -f1,7- > merged.csv
  $ mantis export b --db whole.db | cut -d, -f1,7- > whole.csv
  $ cmp merged.csv whole.csv && wc -l < whole.csv
  21
  $ mantis profile merge other.db s1.db b/profile.db
  mantis: b/profile.db profiles another program, build, inputs file or --ok-exit than other.db
  [1]
