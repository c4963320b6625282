/*
 * bycount.c: instruction counts (ByCounter's features) in evaluators: the whole program's and
 * one function's, each a weighted sum of many block counters that the evaluator adds up in one
 * (src/fuse.c) and keeps in a register through the loops that allow it (src/promote.c), beside
 * a branch feature that reads some of the same counters (those are not fused). One loop calls
 * qsort with a comparator of the program's, so its counters stay in memory; one run exits
 * from inside a loop, so the counts are recorded at exit.
 */
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static unsigned mix(unsigned h, int k)
{
	switch (k % 4) {
	case 0:
		return h * 31 + (unsigned)k;
	case 1:
		return h ^ (h >> 3);
	case 2:
		return h + 0x9e3779b9u;
	default:
		return h * 5;
	}
}

static long walk(int n, int depth)
{
	if (depth == 0 || n < 2)
		return n;
	return walk(n / 2, depth - 1) + walk(n / 3, depth - 1) + 1;
}

int main(int argc, char **argv)
{
	int n, rounds, v[16];
	unsigned h = 7;
	long odd = 0;

	if (argc < 3)
		return 1;
	n = atoi(argv[1]);
	rounds = atoi(argv[2]);
	for (int i = 0; i < n; i++) {
		h = mix(h, i);
		if (h & 1)
			odd++;
		else if ((h & 6) == 0)
			h += 3;
		if (i == 5000000)
			exit(3);
	}
	for (int k = 0; k < 16; k++)
		v[k] = (int)((h >> k) & 255);
	for (int r = 0; r < rounds; r++)
		qsort(v, 16, sizeof v[0], cmp);
	printf("%u %ld %d %ld\n", h, odd, v[0], walk(n, 12));
	return 0;
}

// slice: bycount:(program):-:0:total
// slice: bycount:mix:bycount.c:17:total
// slice: branch:main:bycount.c:50:true
// run: 1000 3
// run: 0 0
// run: 7 200
// run: 6000000 1
// status: 3
// run: 5
// status: 1
