/* Case 2: a flag read late, after expensive work, decides a branch. The branch's true count
 * depends only on the flag (argv[2]), so the prime counting before it is removed. */
#include <stdio.h>
#include <stdlib.h>

/* Counts primes below n by trial division (the expensive part). */
static int count_primes(int n)
{
	int count = 0;

	for (int k = 2; k < n; k++) {
		int prime = 1;

		for (int d = 2; d * d <= k; d++)
			if (k % d == 0) {
				prime = 0;
				break;
			}
		count += prime;
	}
	return count;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 1;
	int n = atoi(argv[1]); // removed
	int primes = count_primes(n); // removed
	long twice = 2L * primes; // removed
	int flag = atoi(argv[2]); // kept
	int bits = 0;

	for (int i = 0; i < 16; i++) {
		if (flag & (1 << i)) {
			bits++; // removed
		}
	}
	if (flag > 1000) {
		printf("big flag\n"); // removed
	}
	printf("%d %ld %d\n", primes, twice, bits); // removed
	return 0;
}

// slice: branch:main:lateflag.c:35:true
// slice: branch:main:lateflag.c:39:true
// cheap
// run: 1000 5
// run: 20000 65535
// run: 100 0
// run: 5000 4097
// run: 1500000 1234
