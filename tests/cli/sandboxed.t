mantis instrument also writes DIR/sandboxed: DIR/inst's objects linked with the sandbox runtime
(rt/sandbox.c). It counts exactly what DIR/inst counts and writes the same counters file, but
changes no file (what it writes goes to memory files) and prints nothing.

A program that reads the file its first argument names, writes the second and removes the third:

  $ cat > copy.c <<'C'
  > #include <stdio.h>
  > int main(int argc, char **argv)
  > {
  > 	FILE *in = fopen(argv[1], "r"), *out;
  > 	char line[256];
  > 	int n = 0;
  > 
  > 	if (!in || argc < 4)
  > 		return 1;
  > 	while (fgets(line, sizeof line, in))
  > 		n++;
  > 	fclose(in);
  > 	if (!(out = fopen(argv[2], "w")))
  > 		return 2;
  > 	fprintf(out, "%d lines\n", n);
  > 	fclose(out);
  > 	if (remove(argv[3]) != 0)
  > 		return 3;
  > 	printf("read %d lines\n", n);
  > 	fprintf(stderr, "done\n");
  > 	return 0;
  > }
  > C
  $ mantis instrument -o build copy.c > /dev/null
  $ test -x build/sandboxed && test -x build/inst && echo both
  both
  $ printf 'a\nb\nc\n' > in.txt
  $ touch doomed1 doomed2

DIR/inst does what the program does:

  $ MANTIS_COUNTERS=inst.bin build/inst in.txt "$PWD/out-inst.txt" "$PWD/doomed1" 2> inst-err.txt
  read 3 lines
  $ cat inst-err.txt
  done
  $ cat out-inst.txt
  3 lines
  $ test -e doomed1 || echo removed
  removed

DIR/sandboxed on the same input: no output file, nothing removed, nothing printed, and the same
counters, byte for byte:

  $ MANTIS_COUNTERS=sandboxed.bin build/sandboxed in.txt "$PWD/out.txt" "$PWD/doomed2" > stdout.txt 2> stderr.txt
  $ test -e out.txt || echo no output file
  no output file
  $ test -e doomed2 && echo still there
  still there
  $ wc -c < stdout.txt; wc -c < stderr.txt
  0
  0
  $ head -c 8 sandboxed.bin; echo
  MANTISC2
  $ cmp inst.bin sandboxed.bin && echo same counters
  same counters

A program that writes a file and reads it back (fopen w, fputs, fclose, fopen r, fgets) computes
the same features sandboxed: what it reads back is what it wrote, from memory. A copy of the build
whose inst is DIR/sandboxed lets mantis features run it:

  $ cat > readback.c <<'C'
  > #include <stdio.h>
  > #include <stdlib.h>
  > int main(int argc, char **argv)
  > {
  > 	int n = atoi(argv[2]), back = 0;
  > 	char line[64];
  > 	FILE *f = fopen(argv[1], "w");
  > 
  > 	if (!f || argc < 3)
  > 		return 1;
  > 	for (int i = 0; i < n; i++)
  > 		fputs("line\n", f);
  > 	fclose(f);
  > 	if (!(f = fopen(argv[1], "r")))
  > 		return 2;
  > 	while (fgets(line, sizeof line, f))
  > 		back++;
  > 	fclose(f);
  > 	printf("%d\n", back);
  > 	return back != n;
  > }
  > C
  $ mantis instrument -o rb readback.c --schemes loop,exit > /dev/null
  $ cp -r rb rb-sandboxed && cp rb/sandboxed rb-sandboxed/inst
  $ mantis features rb --all -- "$PWD/scratch.txt" 7 > inst.txt
  $ rm scratch.txt
  $ mantis features rb-sandboxed --all -- "$PWD/scratch.txt" 7 > sandboxed.txt
  $ test -e scratch.txt || echo no scratch file
  no scratch file
  $ cat sandboxed.txt
  loop:main:readback.c:11                                      7
  loop:main:readback.c:16                                      7
  exit:main:readback.c:3:error-return                          0
  $ cmp inst.txt sandboxed.txt && echo same features
  same features
  $ MANTIS_COUNTERS=rb-inst.bin rb/inst "$PWD/scratch2.txt" 5
  5
  $ MANTIS_COUNTERS=rb-sandboxed.bin rb/sandboxed "$PWD/scratch3.txt" 5
  $ test -e scratch3.txt || echo no scratch file
  no scratch file
  $ cmp rb-inst.bin rb-sandboxed.bin && echo same counters
  same counters

With MANTIS_EVALUATOR_START_ONLY set it ends as it starts (mantis eval's start-up floor), writing
no counters:

  $ MANTIS_EVALUATOR_START_ONLY=1 MANTIS_COUNTERS=start.bin build/sandboxed in.txt "$PWD/out.txt" "$PWD/doomed2"
  $ test -e start.bin || echo no counters
  no counters
