mantis slice on a small program: a loop whose count depends on the first argument only, and
work on the second that the evaluator leaves out.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int main(int argc, char **argv)
  > {
  > 	int n = atoi(argv[1]), w = atoi(argv[2]);
  > 	long s = 0;
  > 	for (int i = 0; i < n; i++)
  > 		s += i;
  > 	for (int j = 0; j < w; j++)
  > 		s ^= j * 7;
  > 	printf("%ld\n", s);
  > 	return argc > 3;
  > }
  > C
  $ mantis instrument -o build prog.c --schemes loop > /dev/null
  $ printf '3 1000\n10 5\n0 0\n' > inputs.txt
  $ mantis slice build --features loop:main:prog.c:7 --inputs inputs.txt --reps 1 --lines > out.txt
  $ grep -c validated out.txt
  1
  $ grep '^prog' out.txt
  prog.c:5
  prog.c:7
  $ ls build/slice
  feature0
  feature0.bc

The evaluator prints nothing and writes the loop's count where MANTIS_COUNTERS says, in the
sparse form: header, number of pairs, then (counter, value) for the counters it computes:

  $ MANTIS_COUNTERS=c.bin build/slice/feature0 4 100000000
  $ head -c 8 c.bin; echo
  MANTISC2
  $ od -A n -t u8 -j 24 c.bin
                      1                    2
                      4

--why says why a slice keeps a line: a shortest chain of dependences from the line to the
feature's value at exit. The first argument decides the loop's count; the second does not:

  $ mantis slice build --features loop:main:prog.c:7 --inputs inputs.txt --reps 1 --why prog.c:5 | tail -n +3 | grep -v '^  which' | cut -d: -f1-3
  prog.c:5 in main: call atoi
  prog.c:7 in main: %10 = icmp slt i32 %.01, %5
  prog.c:7 in main: br i1 %10, label %11, label %17
  ? in main: store i64 %13, i64* @__mantis_c.2, align 8
  prog.c:12 in main: actual-in of memory class 2 (@__mantis_c.2)
  in __mantis_slice_dump: formal-in of memory class 2 (@__mantis_c.2)
  ? in __mantis_slice_dump: %0 = load i64, i64* @__mantis_c.2, align 8
  ? in __mantis_slice_dump: call __mantis_slice_emit
  $ mantis slice build --features loop:main:prog.c:7 --inputs inputs.txt --reps 1 --why prog.c:9 | tail -1
  prog.c:9: the slice keeps no instruction of this line
  $ mantis slice build --features loop:main:prog.c:7 --why prog.c
  mantis slice: --why: 'prog.c' is not FILE:LINE
  See 'mantis help slice'.
  [2]

The JSON form:

  $ mantis slice build --features loop:main:prog.c:7,loop:main:prog.c:9 --inputs inputs.txt --reps 1 --json > out.json
  $ /usr/bin/python3 -c 'import json; d = json.load(open("out.json")); print([(f["name"], f["validated"], f["kept"] < f["total"]) for f in d["features"]])'
  [('loop:main:prog.c:7', True, True), ('loop:main:prog.c:9', True, True)]

--in-process also builds each evaluator's shared-object form, which runs in its caller's
process (src/solib.c: no process start), validates it as the evaluator and measures its cost;
mantis-host runs it as the evaluator runs, and ends as it ends (here killed by the crash of
atoi on a missing argument, which it caught):

  $ mantis slice build --features loop:main:prog.c:7 --inputs inputs.txt --reps 1 --in-process --json > out.json
  $ /usr/bin/python3 -c 'import json; f = json.load(open("out.json"))["features"][0]; print(f["validated"], f["in_process"]["validated"], f["in_process"]["object"], f["in_process"]["cost"] > 0)'
  True True build/slice/feature0.so True
  $ MANTIS_COUNTERS=$PWD/h.bin mantis-host build/slice/feature0.so prog 4 100000000
  $ cmp c.bin h.bin
  $ /usr/bin/python3 -c 'import subprocess; print(subprocess.run(["mantis-host", "build/slice/feature0.so", "prog"]).returncode)'
  -11

Counter promotion (src/promote.c): the count of a branch side taken inside a loop lives in a
register through the loop, loaded before it and stored after it, where LLVM alone keeps it in
memory (only one arm updates it); the evaluator still counts what the program does. The loop
that calls qsort needs no counter in its evaluator: its count is the bound, computed at once.

  $ cat > prom.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > static int cmp(const void *a, const void *b)
  > {
  > 	return *(const int *)a - *(const int *)b;
  > }
  > int main(int argc, char **argv)
  > {
  > 	int n = atoi(argv[1]), v[4] = {3, 1, 2, 0};
  > 	unsigned h = 1, thirds = 0;
  > 	for (int i = 0; i < n; i++) {
  > 		h = h * 1103515245u + 12345u;
  > 		if ((h >> 16) % 3 == 0)
  > 			thirds++;
  > 	}
  > 	for (int i = 0; i < n; i++)
  > 		qsort(v, 4, sizeof v[0], cmp);
  > 	printf("%u %d\n", thirds, v[0]);
  > 	return 0;
  > }
  > C
  $ mantis instrument -o pb prom.c --schemes loop,branch > /dev/null
  $ printf '10\n1000\n0\n' > prom.txt
  $ mantis slice pb --features branch:main:prom.c:13:true,loop:main:prom.c:16 --inputs prom.txt --reps 1 --json > prom.json
  $ /usr/bin/python3 -c 'import json; d = json.load(open("prom.json")); print([(f["name"], f["validated"], f["promoted"]) for f in d["features"]])'
  [('branch:main:prom.c:13:true', True, {'loops': 1, 'counters': 1, 'unsafe': 0}), ('loop:main:prom.c:16', True, {'loops': 0, 'counters': 0, 'unsafe': 0})]

Errors name what is wrong:

  $ mantis slice build
  mantis slice: --features needs one or more feature names
  See 'mantis help slice'.
  [2]
  $ mantis slice build --features loop:main:prog.c:99
  mantis: build/features.json has no feature loop:main:prog.c:99
  [1]
  $ mantis slice nowhere --features x
  mantis: cannot open nowhere/features.json: No such file or directory
  [1]

An input on which the program fails is named, and failing on every input said: cut to the side
training took, every evaluator is then the failure's path, which may be meant (an exit status
the evaluator gives too) or not (a relative path in an inputs file names a file beside that
file, not one in the current folder):

  $ printf '3 1000\n4 5 extra\n' > failing.txt
  $ mantis slice build --features loop:main:prog.c:7 --inputs failing.txt --reps 1 | tail -1 | grep -o validated
  mantis slice: failing.txt:2: build/inst exits with status 1 (4 5 extra)
  validated
  $ printf '4 5 extra\n' > failing.txt
  $ mantis slice build --features loop:main:prog.c:7 --inputs failing.txt --reps 1 | tail -1 | grep -o validated
  mantis slice: failing.txt:1: build/inst exits with status 1 (4 5 extra)
  mantis slice: build/inst fails on every input of failing.txt: its evaluators are cut to the failure's path (a relative path in an inputs file names a file beside it)
  validated
  $ mantis slice build --features loop:main:prog.c:7 --inputs failing.txt --reps 1 --ok-exit 1 | tail -1 | grep -o validated
  validated
