/* Case 4: context sensitivity. helper() is called twice: once on the result of an expensive
 * computation that only feeds the output, once on n, which bounds the feature's loop. A
 * context-insensitive slicer joins both call sites at helper's parameter and keeps
 * expensive_sum(); the two-pass (Horwitz-Reps-Binkley) slice follows only the cheap site. */
#include <stdio.h>
#include <stdlib.h>

static long helper(long x)
{
	return x + 1;
}

/* Expensive: a long dependent chain of multiply-xor steps. */
static long expensive_sum(long n, int rounds)
{
	unsigned long h = (unsigned long)n;

	for (int r = 0; r < rounds; r++)
		for (long i = 0; i < 1000; i++)
			h = (h ^ (h >> 31)) * 0x94d049bb133111ebUL + (unsigned long)i;
	return (long)(h >> 8);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 1;
	long n = atol(argv[1]); // kept
	int rounds = atoi(argv[2]); // removed
	long a = helper(expensive_sum(n, rounds)); // removed
	long b = helper(n); // kept
	long steps = 0;

	for (long i = 0; i < b; i++)
		steps += i % 3; // removed
	printf("%ld %ld\n", a, steps); // removed
	return 0;
}

// slice: loop:main:context.c:34
// cheap
// run: 10 100
// run: 0 50
// run: -3 10
// run: 5000 1000
// run: 1000 100000
