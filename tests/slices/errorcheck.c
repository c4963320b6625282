/* Case 13: an error check after the expensive work, never taken in training, ends main early
 * (the check after writing the output, as the spamfilter example has). A decision no training
 * run took is cut from the slice (src/prune.c), so the count of the loop after it does not
 * depend on the work any more: the work and its check are removed. */
#include <stdio.h>
#include <stdlib.h>

/* A checksum of n rounds of a generator (the expensive part); never 1 for n > 0. */
static unsigned long work(long n)
{
	unsigned long h = 88172645463325252UL;

	for (long i = 0; i < n; i++)
		h = h * 6364136223846793005UL + 1442695040888963407UL;
	return h | 2;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long n = atol(argv[1]); // removed
	unsigned long sum = work(n); // removed
	if (sum == 1) {
		fprintf(stderr, "the work failed\n"); // removed
		return 1;
	}
	int k = atoi(argv[2]); // kept
	long squares = 0;

	for (int i = 0; i < k; i++)
		squares += (long)i * i;
	printf("%lu %ld\n", sum, squares); // removed
	return 0;
}

// slice: loop:main:errorcheck.c:31
// cheap
// run: 1000 5
// run: 1000000000 70
