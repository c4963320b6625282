/* Case 10: a value feature. argv[1] is a comma-separated list of integers (decimal, hex or
 * octal, as strtol base 0 reads them); the features are the sum and the count of the values
 * assigned to v. Each value also goes through an expensive mixing step that is removed. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long mix(long v, int rounds)
{
	unsigned long h = (unsigned long)v;

	for (int r = 0; r < rounds; r++)
		h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdUL + (unsigned long)r;
	return h;
}

int main(int argc, char **argv)
{
	const char *p;
	char *end;
	unsigned long acc = 0;
	int items = 0;

	if (argc < 3)
		return 1;
	int rounds = atoi(argv[2]); // removed
	p = argv[1];
	while (*p) {
		long v = strtol(p, &end, 0); // kept

		if (end == p)
			break;
		if (v < 0)
			v = -v; // kept
		acc += mix(v, rounds); // removed
		items++; // removed
		p = *end == ',' ? end + 1 : end;
	}
	printf("%d %lu\n", items, acc); // removed
	return 0;
}

// slice: value:main:value.c:28:v.sum
// slice: value:main:value.c:28:v.count
// cheap
// run: 1,2,3 10
// run: 5,,9 10
// run: -40,7,x 10
// run: 12,0x1f,-7,300,077 1000
// run: 12,0x1f,-7,300,077 20000000
