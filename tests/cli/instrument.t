mantis instrument and mantis features on a small program.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int main(int argc, char **argv)
  > {
  > 	int n = atoi(argv[1]), s = 0;
  > 	for (int i = 0; i < n; i++)
  > 		if (i % 4 == 0)
  > 			s += i;
  > 	printf("%d\n", s);
  > 	return argc > 2;
  > }
  > C
  $ mantis instrument -o build prog.c --schemes loop,branch,exit
  build/orig, build/inst, build/features.json: 6 features (1 loop, 4 branch, 0 switch, 0 call, 0 value, 1 exit, 0 bycount), 5 counters
  $ build/orig 12
  12
  $ mantis features build -- 12
  branch:main:prog.c:6:true                                    12
  branch:main:prog.c:6:false                                   1
  branch:main:prog.c:7:true                                    3
  branch:main:prog.c:7:false                                   9
  loop:main:prog.c:6                                           12
  $ mantis features build --kind exit --all -- 12 extra
  mantis features: the program ended: nonzero (exit 1, signal 0)
  exit:main:prog.c:3:error-return                              1
  $ mantis features --all build --kind exit -- 12 extra
  mantis features: the program ended: nonzero (exit 1, signal 0)
  exit:main:prog.c:3:error-return                              1

The instrumented build alone writes its counters where MANTIS_COUNTERS says, and prints what the
original prints:

  $ MANTIS_COUNTERS=counters.bin build/inst 5
  4
  $ head -c 8 counters.bin; echo
  MANTISC2

Errors name what is wrong:

  $ mantis instrument prog.c
  mantis instrument: no output directory (-o DIR)
  See 'mantis help instrument'.
  [2]
  $ mantis instrument -o x prog.c --schemes loop,speed
  mantis instrument: --schemes: unknown scheme 'speed' (schemes: branch, loop, call, value, exit, bycount, all, fields)
  See 'mantis help instrument'.
  [2]
  $ mantis instrument -o x missing.c
  mantis: cannot read missing.c
  [1]
  $ mantis instrument -o x notes.txt
  mantis instrument: 'notes.txt': give C sources (.c), one bitcode file (.bc, .ll) or a program built with CC="mantis cc"
  See 'mantis help instrument'.
  [2]
  $ printf 'int main(void) { return x; }\n' > bad.c
  $ mantis instrument -o x bad.c 2>&1 | tail -1
  mantis: compiling bad.c: clang-14 failed (exit status 1)
  $ mantis features nowhere -- 1
  mantis: cannot open nowhere/features.json: No such file or directory
  [1]

Without debug information it still works, naming IR positions (block numbers):

  $ clang-14 -O2 -Xclang -disable-llvm-passes -c -emit-llvm prog.c -o nodebug.bc
  $ mantis instrument -o nd nodebug.bc --schemes loop > /dev/null
  $ mantis features nd -- 12
  loop:main:ir:2                                               12

Values: locals, parameters, globals and floating-point variables (in fixed point, 1/65536);
--values-first K adds each variable's first K values, VAR.v1 ... VAR.vK:

  $ cat > vals.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int steps;
  > int main(int argc, char **argv)
  > {
  > 	double r = atoi(argv[1]) / 4.0;
  > 	for (int i = 0; i < 3; i++) {
  > 		r = r * 2;
  > 		steps += i + 1;
  > 	}
  > 	printf("%g %d\n", r, steps + argc);
  > 	return 0;
  > }
  > C
  $ mantis instrument -o vals vals.c --schemes value --values-first 2 | sed 's/), .*/)/'
  vals/orig, vals/inst, vals/features.json: 24 features (0 loop, 0 branch, 0 switch, 0 call, 24 value, 0 exit, 0 bycount)
  $ grep -o '"name":"value:[^"]*:[ir]\.[^"]*"' vals/features.json
  "name":"value:main:vals.c:6:r.sum"
  "name":"value:main:vals.c:6:r.count"
  "name":"value:main:vals.c:6:r.mean"
  "name":"value:main:vals.c:6:r.first"
  "name":"value:main:vals.c:6:r.v1"
  "name":"value:main:vals.c:6:r.v2"
  "name":"value:main:vals.c:7:i.sum"
  "name":"value:main:vals.c:7:i.count"
  "name":"value:main:vals.c:7:i.mean"
  "name":"value:main:vals.c:7:i.first"
  "name":"value:main:vals.c:7:i.v1"
  "name":"value:main:vals.c:7:i.v2"
  $ mantis features vals -- 5 | grep -v argc
  value:main:vals.c:6:r.sum                                    18.75
  value:main:vals.c:6:r.count                                  4
  value:main:vals.c:6:r.mean                                   4.6875
  value:main:vals.c:6:r.first                                  1.25
  value:main:vals.c:6:r.v1                                     1.25
  value:main:vals.c:6:r.v2                                     2.5
  value:main:vals.c:7:i.sum                                    6
  value:main:vals.c:7:i.count                                  4
  value:main:vals.c:7:i.mean                                   1.5
  value:main:vals.c:7:i.v2                                     1
  value:(global):vals.c:3:steps.sum                            10
  value:(global):vals.c:3:steps.count                          3
  value:(global):vals.c:3:steps.mean                           3.3333333333333335
  value:(global):vals.c:3:steps.first                          1
  value:(global):vals.c:3:steps.v1                             1
  value:(global):vals.c:3:steps.v2                             3
r's sum, mean, first, v1 and v2 are in fixed point (their counters hold value x 2^16):

  $ grep -c '"shift":16' vals/features.json
  5
  $ mantis instrument -o x vals.c --values-first 0
  mantis instrument: --values-first needs a number from 1 to 64, not '0'
  See 'mantis help instrument'.
  [2]
  $ mantis instrument -o x vals.c --values-first=65
  mantis instrument: --values-first needs a number from 1 to 64, not '65'
  See 'mantis help instrument'.
  [2]
  $ mantis instrument -o x vals.c --values-first=2x
  mantis instrument: --values-first needs a number from 1 to 64, not '2x'
  See 'mantis help instrument'.
  [2]
  $ mantis instrument -o x vals.c --values-first
  mantis instrument: --values-first needs a value
  See 'mantis help instrument'.
  [2]

Without the option a variable has .first and no .vK:

  $ mantis instrument -o vals1 vals.c --schemes value | sed 's/), .*/)/'
  vals1/orig, vals1/inst, vals1/features.json: 16 features (0 loop, 0 branch, 0 switch, 0 call, 16 value, 0 exit, 0 bycount)
  $ grep -c '"name":"value:[^"]*\.v[0-9]' vals1/features.json
  0
  [1]

Snapshots (eval's partial and bounded execution): MANTIS_SNAPSHOTS receives the counters every
MANTIS_SNAPSHOT_INTERVAL seconds. A period shorter than a snapshot's write grows to 20 times it
(and is at least 0.1 ms), so the program still runs: asked for one every microsecond, this 0.1 s
loop ends with at most one snapshot per 0.1 ms, not in a livelock that fills the disk:

  $ cat > spin.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > 
  > int main(int argc, char **argv)
  > {
  > 	long n = atol(argv[1]), s = 0;
  > 
  > 	for (long i = 0; i < n; i++)
  > 		s += (i * 7) % 13;
  > 	printf("%ld\n", s);
  > 	return 0;
  > }
  > C
  $ mantis instrument -o spin spin.c > /dev/null
  $ MANTIS_COUNTERS=c.bin MANTIS_SNAPSHOTS=snaps.bin MANTIS_SNAPSHOT_INTERVAL=0.000001 timeout 60 spin/inst 100000000
  599999990
  $ python3 -c "
  > import os
  > data = open('snaps.bin', 'rb').read()
  > k = int.from_bytes(data[16:24], 'little')
  > n = (len(data) - 24) // (8 * (k + 1))
  > stamps = [int.from_bytes(data[24 + i * 8 * (k + 1):32 + i * 8 * (k + 1)], 'little') for i in range(n)]
  > print(data[:8].decode(), 0 < n < stamps[-1] / 100000 + 2, stamps == sorted(stamps))"
  MANTISS1 True True
