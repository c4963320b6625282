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
  build/orig, build/inst, build/features.json: 6 features (1 loop, 4 branch, 0 switch, 0 call, 0 value, 1 exit, 0 bycount), 7 counters
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
  MANTISC1

Errors name what is wrong:

  $ mantis instrument prog.c
  mantis instrument: no output directory (-o DIR)
  See 'mantis help instrument'.
  [2]
  $ mantis instrument -o x prog.c --schemes loop,speed
  mantis instrument: --schemes: unknown scheme 'speed' (schemes: branch, loop, call, value, exit, bycount, all)
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
