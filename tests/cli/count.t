mantis count: the exact dynamic instruction counts of one run, per function, opcode and library
call. The program's IR after mantis prepares it (mem2reg, simplifycfg) is, for triangle:
entry: br (once); header: phi phi icmp br (n + 1 times); body: add add br (n times); exit: ret
(once). So triangle executes 7n + 6 instructions; main executes 9 (getelementptr, load, call atoi,
sext, call memset, call triangle, icmp, zext, ret) and memset's size parameter is n bytes.

  $ cat > loop.c <<'C'
  > #include <stdlib.h>
  > #include <string.h>
  > 
  > static char buf[4096];
  > 
  > static int triangle(int n)
  > {
  > 	int s = 0;
  > 	for (int i = 0; i < n; i++)
  > 		s += i;
  > 	return s;
  > }
  > 
  > int main(int argc, char **argv)
  > {
  > 	int n = atoi(argv[1]);
  > 	memset(buf, 1, (size_t)n);
  > 	return triangle(n) == 4950;
  > }
  > C
  $ mantis instrument -o build loop.c --schemes bycount
  build/orig, build/inst, build/features.json: 28 features (0 loop, 0 branch, 0 switch, 0 call, 0 value, 0 exit, 28 bycount), 5 counters
  $ mantis count build -- 10
  (program): 85 instructions
      22*br 22*phi 20*add 12*icmp 3*call 2*ret 1*getelementptr 1*load 1*sext 1*zext
      1*atoi() 1*memset(10 bytes)
  main (loop.c:14): 9 instructions
      3*call 1*getelementptr 1*icmp 1*load 1*ret 1*sext 1*zext
      1*atoi() 1*memset(10 bytes)
  triangle (loop.c:6): 76 instructions
      22*br 22*phi 20*add 11*icmp 1*ret
  $ mantis count build -- 1000 | head -1
  (program): 7015 instructions

The same counts as JSON, identical on every repetition:

  $ mantis count --json build -- 1000 > a.json
  $ mantis count build --json -- 1000 > b.json
  $ cmp a.json b.json
  $ python3 -c 'import json; j = json.load(open("a.json")); print(j["total"], j["opcodes"]["add"], j["calls"]["memset"], j["functions"]["triangle"]["total"], sorted(j["functions"]))'
  7015 2000 {'calls': 1, 'bytes': 1000} 7006 ['main', 'triangle']

One counter increment per instruction (ByCounter before invariant sequences, the bench's
reference) counts the same:

  $ mantis instrument -o per-instruction loop.c --schemes bycount-per-instruction > /dev/null
  $ mantis count per-instruction --json -- 1000 | cmp - a.json

A program that fails still has its counts, with a warning (triangle(100) is 4950):

  $ mantis count build -- 100 | head -1
  mantis count: the program ended: nonzero (exit 1, signal 0)
  (program): 715 instructions

Errors:

  $ mantis instrument -o loops-only loop.c --schemes loop > /dev/null
  $ mantis count loops-only -- 1
  mantis: loops-only/features.json: no instruction counts: instrument with --schemes including bycount
  [1]
  $ mantis count
  mantis count: no build directory given
  See 'mantis help count'.
  [2]
