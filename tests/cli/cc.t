mantis cc in a make build with an object, a static archive and a system library.

  $ cat > util.c <<'C'
  > #include <math.h>
  > double spread(int n)
  > {
  > 	double s = 0;
  > 	for (int i = 1; i <= n; i++)
  > 		s += sqrt((double)i);
  > 	return s;
  > }
  > C
  $ cat > main.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > double spread(int n);
  > int main(int argc, char **argv)
  > {
  > 	printf("%.3f\n", spread(argc > 1 ? atoi(argv[1]) : 10));
  > 	return 0;
  > }
  > C
  $ printf 'prog: main.o libutil.a\n\t$(CC) -o prog main.o -L. -lutil -lm\nlibutil.a: util.o\n\tar rcs $@ $^\n%%.o: %%.c\n\t$(CC) -O2 -c -o $@ $<\n' > Makefile
  $ make -s CC="mantis cc" prog
  $ ./prog 4
  6.146
  $ ls *.bc *.flags
  main.o.bc
  prog.mantis.bc
  prog.mantis.flags
  util.o.bc
  $ cat prog.mantis.flags
  -lm

The archive's member came along (util.c's loop is in the program's bitcode):

  $ mantis instrument -o b prog --schemes loop,call | sed 's/:.*//'
  b/orig, b/inst, b/features.json
  $ /usr/bin/python3 -c 'import json; print(json.load(open("b/features.json"))["build"]["program"])'
  prog
  $ b/orig 4
  6.146
  $ mantis features b -- 25
  call:main:main.c:4                                           1
  call:atoi:main.c:6:count                                     1
  call:printf:main.c:6:count                                   1
  call:spread:util.c:2                                         1
  loop:spread:util.c:5                                         25
  call:sqrt:util.c:6:count                                     25

Everything else passes through to clang-14, and what has no bitcode says so:

  $ mantis cc --version | head -1 | cut -d' ' -f1-3
  Debian clang version
  $ mantis cc -c nosuch.c 2>&1 | grep -c 'no such file'
  1
  $ mantis cc -c nosuch.c 2>/dev/null
  [1]
  $ mantis instrument -o x main.o
  mantis: main.o: no bitcode recorded for it (main.o.mantis.bc); build it with CC="mantis cc", or give its C sources or bitcode
  [1]

A shared library built by mantis cc is folded in; where the program's own objects define the
same symbols (as lz4's Makefile does), the program's definitions win, as with a real linker:

  $ mantis cc -O2 -fPIC -shared -o libspread.so.1 util.c -lm
  $ ln -s libspread.so.1 libspread.so
  $ mantis cc -O2 -c -o util2.o util.c
  $ mantis cc -o both main.o util2.o -L . -lspread -lm
  $ cat both.mantis.flags
  -lm
  $ mantis instrument -o b2 both --schemes loop > /dev/null
  $ b2/orig 4
  6.146
  $ mantis features b2 -- 9
  loop:spread:util.c:5                                         9
