/*
 * pure.c: functions marked as writing no memory (readnone: rev, declared const, reads only its
 * arguments; readonly: checksum, declared pure, reads a global; clang infers the same marks in
 * the bitcode of a build optimised as usual, mantis cc's) count their blocks all the same once
 * instrumented, so the instrumenter drops those marks: otherwise the optimiser merges the two
 * calls of rev with the same arguments into one, and folds the counter checksum adds to what it
 * was before the call (gzip's bi_reverse and getcrc: 1.6% short, and 0).
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned sum;

__attribute__((const)) static unsigned rev(unsigned code, int len)
{
	unsigned res = 0;

	do {
		res |= code & 1;
		code >>= 1, res <<= 1;
	} while (--len > 0);
	return res >> 1;
}

__attribute__((pure)) static unsigned checksum(void)
{
	return sum ^ 0xffffffffu;
}

int main(int argc, char **argv)
{
	int n;

	if (argc < 2)
		return 1;
	n = atoi(argv[1]);
	for (int i = 0; i < n; i++) {
		unsigned a = rev((unsigned)i, 9), b = rev((unsigned)i, 9);

		sum += a + (b & 1);
	}
	printf("%u %u\n", checksum(), checksum());
	return 0;
}

// slice: bycount:rev:pure.c:14:total
// slice: bycount:checksum:pure.c:25:total
// slice: bycount:(program):-:0:total
// run: 0
// run: 1
// run: 1000
