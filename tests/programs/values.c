/* Values assigned to named variables: sums, counts, first values, unsigned narrow types. */
#include <stdio.h>
#include <stdlib.h>

static unsigned char level(unsigned char c)
{
	return c > 200 ? 255 : c;
}

int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	long total = 0;
	unsigned char peak = 0;

	for (int k = 1; k <= n; k++) {
		total += k * k;
		peak = level((unsigned char)(k * 50));
	}
	printf("%ld %u %d\n", total, peak, argc);
	return 0;
}

// run: 5
// expect: value:main:values.c:10:argc.sum = 2
// expect: value:main:values.c:12:n.first = 5
// expect: value:main:values.c:13:total.sum = 105
// expect: value:main:values.c:13:total.count = 6
// expect: value:main:values.c:13:total.mean = 17.5
// expect: value:main:values.c:16:k.sum = 21
// expect: value:main:values.c:16:k.first = 1
// expect: value:main:values.c:14:peak.sum = 755
// expect: value:level:values.c:5:c.sum = 750
// expect: value:level:values.c:5:c.count = 5
