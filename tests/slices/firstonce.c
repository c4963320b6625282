/* Case: a first value assigned once, in a function called once, ahead of a long loop that the
 * slice keeps for another reason: the exit status says whether the loop met a warning (as
 * djpeg's says whether decoding did). No later assignment reads the variable's assignment
 * count, so the slice drops the count's update; the evaluator must still stop once the value
 * is assigned, and cost the work up to it, not the loop (slice.c, restore_count_updates). */
#include <stdio.h>
#include <stdlib.h>

static long warnings; /* the loop's warnings: the exit status */

static long row_width(const char *text, long channels)
{
	long width = atol(text) * channels; // kept

	return width;
}

int main(int argc, char **argv)
{
	unsigned long h = 5381;
	long n, width;

	if (argc < 3)
		return 1;
	width = row_width(argv[1], 3); // kept
	n = atol(argv[2]); // kept
	for (long i = 0; i < n; i++) {
		h = h * 33 + (unsigned long)i; // kept
		if (h % 1000003 == 7) {
			warnings++; // kept
		}
	}
	printf("%ld %lu\n", width, h); // removed
	exit(warnings > 0 ? 2 : 0);
}

// slice: value:row_width:firstonce.c:13:width.first
// cheap
// run: 640 10
// run: 17 0
// run: 1920 150000000
// status: 2
