/* Case 12: an early exit. check() calls exit(2) when an argument is not a non-negative
 * number; the features (the argument loop's count, check's calls) must be recorded at that
 * exit too, so the slice keeps the exit and the test on the bad value. */
#include <stdio.h>
#include <stdlib.h>

static void check(const char *word, long v, const char *end)
{
	if (*end != '\0' || v < 0) {
		fprintf(stderr, "bad argument '%s'\n", word); // removed
		exit(2); // kept
	}
}

static unsigned long crunch(long v, int rounds)
{
	unsigned long h = (unsigned long)v;

	for (int r = 0; r < rounds; r++)
		h = (h ^ (h >> 31)) * 0xd6e8feb86659fd93UL + (unsigned long)r;
	return h;
}

int main(int argc, char **argv)
{
	unsigned long acc = 0;
	long sum = 0;
	char *end;

	if (argc < 3)
		return 1;
	int rounds = atoi(argv[1]); // removed
	for (int i = 2; i < argc; i++) {
		long v = strtol(argv[i], &end, 10); // kept

		check(argv[i], v, end); // kept
		sum += v; // removed
		acc ^= crunch(v, rounds); // removed
	}
	printf("%ld %lu\n", sum, acc); // removed
	return 0;
}

// slice: loop:main:exit.c:33
// slice: call:check:exit.c:7
// run: 10 5 8 13
// run: 10 5 -3 13
// status: 2
// run: 10 4 x 9
// status: 2
// run: 10 7
// run: 10
// status: 1
