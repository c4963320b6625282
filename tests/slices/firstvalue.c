/* Case: a value a header sets early, which later work sets again. The slice of the width's
 * first value keeps the loop, whose calls of read_header count its assignments (the static
 * slice cannot tell that they come after the first), yet the evaluator stops once the first
 * value is assigned: it costs the work up to the header, not the loop. */
#include <stdio.h>
#include <stdlib.h>

static int width; /* the header's width: assigned once on every run */

static void read_header(const char *text)
{
	width = atoi(text); // kept
}

int main(int argc, char **argv)
{
	unsigned long h = 5381;
	long n;

	if (argc < 3)
		return 1;
	read_header(argv[1]); // kept
	n = atol(argv[2]);
	for (long i = 0; i < n; i++) { // kept
		h = h * 33 + (unsigned long)i; // removed
		if (i % 1000000 == 999999) // kept
			read_header(argv[1] + 1);
	}
	printf("%d %lu\n", width, h);
	return 0;
}

// slice: value:(global):firstvalue.c:8:width.first
// cheap
// run: 640 10
// run: 17 0
// run: 1920 300000000
