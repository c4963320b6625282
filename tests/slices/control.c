/* Case 5: switch, goto, break and continue decide the features. A token stream from a seeded
 * generator drives a small state machine: continue skips, break leaves the switch or an inner
 * loop, goto leaves the main loop. The expensive crunch() on some tokens is removed. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng = 1;

static unsigned next_rand(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33);
}

static unsigned long crunch(unsigned long h, int rounds)
{
	for (int r = 0; r < rounds; r++)
		h = (h ^ (h >> 27)) * 0x9e3779b97f4a7c15UL + (unsigned long)r;
	return h;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 1;
	int n = atoi(argv[1]);
	rng = strtoull(argv[2], NULL, 10);
	int rounds = atoi(argv[3]); // removed
	unsigned long work = 0;
	int depth = 0, resets = 0, skipped = 0, i;

	for (i = 0; i < n; i++) {
		unsigned t = next_rand() % 8;

		switch (t) {
		case 0:
			skipped++; // removed
			continue;
		case 1:
			if (depth > 0)
				depth--; // kept
			break;
		case 2:
		case 3:
			depth++; // kept
			break;
		case 4:
			work += crunch(t + (unsigned long)i, rounds); // removed
			break;
		case 5:
			if (depth == 0 && i > n / 2)
				goto done;
			break;
		case 6:
			for (;;) {
				if (next_rand() % 4 == 0)
					break;
				depth++; // kept
			}
			break;
		default:
			work ^= t; // removed
			break;
		}
		if (depth > 4) {
			depth -= 5; // kept
			resets++; // removed
		}
	}
done:
	printf("%d %d %d %lu\n", i, resets, skipped, work); // removed
	return 0;
}

// slice: loop:main:control.c:32
// slice: loop:main:control.c:55
// slice: branch:main:control.c:65:true
// cheap
// run: 100 1 100
// run: 1000 2 1000
// run: 5000 3 10
// run: 50000 5 30000
