/* Values assigned to named variables: sums, counts, first values, unsigned narrow types,
 * globals and a static local, an address-taken local and parameter (stores to their memory;
 * a store through a pointer is not counted), float and double in fixed point (1/65536), and the
 * first three values of each (values-first: 3). */
#include <stdio.h>
#include <stdlib.h>

long calls;         /* a global, assigned in bump */
double scale = 1.0; /* a floating-point global: the initial value is no assignment */

static unsigned char level(unsigned char c)
{
	return c > 200 ? 255 : c;
}

static void set(int *p, int v)
{
	*p = v;
}

static int bump(int by)
{
	static int hits;

	hits++;
	calls += by;
	set(&by, by * 10);
	by = by + 1;
	return by;
}

int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	long total = 0;
	unsigned char peak = 0;
	int kept = 2;
	double x = 0.5, tenth = -0.1;
	float w = 0.25f;

	set(&kept, 7);
	kept = kept * 3;
	for (int k = 1; k <= n; k++) {
		total += k * k;
		peak = level((unsigned char)(k * 50));
		x = x * 2 - 0.25;
		w += 0.5f;
		scale = scale / 2;
		bump(k);
	}
	printf("%ld %u %d %d %g %g %g %g %ld\n", total, peak, argc, kept, x, tenth, w, scale, calls);
	return 0;
}

// values-first: 3
// run: 5
// expect: value:main:values.c:32:argc.sum = 2
// expect: value:main:values.c:34:n.first = 5
// expect: value:main:values.c:35:total.sum = 105
// expect: value:main:values.c:35:total.count = 6
// expect: value:main:values.c:35:total.mean = 17.5
// expect: value:main:values.c:35:total.v1 = 0
// expect: value:main:values.c:35:total.v2 = 1
// expect: value:main:values.c:35:total.v3 = 5
// expect: value:main:values.c:43:k.sum = 21
// expect: value:main:values.c:43:k.first = 1
// expect: value:main:values.c:36:peak.sum = 755
// expect: value:level:values.c:11:c.sum = 750
// expect: value:level:values.c:11:c.count = 5
// an address-taken local: stored 2, then 7 through a pointer (not counted), then 21
// expect: value:main:values.c:37:kept.sum = 23
// expect: value:main:values.c:37:kept.count = 2
// expect: value:main:values.c:37:kept.v2 = 21
// expect: value:main:values.c:37:kept.v3 = 0
// an address-taken parameter: k on entry, then k * 10 + 1
// expect: value:bump:values.c:21:by.sum = 170
// expect: value:bump:values.c:21:by.count = 10
// expect: value:bump:values.c:21:by.v1 = 1
// expect: value:bump:values.c:21:by.v2 = 11
// expect: value:bump:values.c:21:by.v3 = 2
// expect: value:set:values.c:16:v.sum = 157
// globals, a static local
// expect: value:(global):values.c:8:calls.sum = 35
// expect: value:(global):values.c:8:calls.count = 5
// expect: value:(global):values.c:8:calls.v3 = 6
// expect: value:bump:values.c:23:hits.sum = 15
// expect: value:bump:values.c:23:hits.first = 1
// expect: value:(global):values.c:9:scale.sum = 0.96875
// expect: value:(global):values.c:9:scale.count = 5
// expect: value:(global):values.c:9:scale.v2 = 0.25
// doubles and a float: 0.5 0.75 1.25 2.25 4.25 8.25; 0.25 0.75 ... 2.75
// expect: value:main:values.c:38:x.sum = 17.25
// expect: value:main:values.c:38:x.mean = 2.875
// expect: value:main:values.c:38:x.v3 = 1.25
// expect: value:main:values.c:39:w.sum = 9
// expect: value:main:values.c:39:w.count = 6
// fixed point rounds halves away from zero: -0.1 * 65536 = -6553.6 -> -6554
// expect: value:main:values.c:38:tenth.first = -0.100006103515625
