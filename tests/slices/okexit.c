/* Case 19: an exit status that only says the run ended well. The program counts a file's lines,
 * then loops three times a line (the feature), and exits with 2 when the file has many odd
 * bytes, 0 otherwise: djpeg's exit(warnings ? EXIT_WARNING : EXIT_SUCCESS). With --ok-exit 2
 * both end the run well, so the evaluator need not compute which (src/slice.c drop_ok_status):
 * the byte loop goes. Without --ok-exit 2 the status tells a failure from a result and would
 * keep it. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	char line[256];
	long lines = 0, odd = 0, rounds = 0;
	FILE *f;

	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 1;
	while (fgets(line, sizeof line, f)) {
		lines++;
		for (char *p = line; *p; p++)
			odd += *p & 1; // removed
	}
	fclose(f);
	for (long r = 0; r < lines * 3; r++)
		rounds += r % 7 == 0;
	printf("%ld %ld\n", lines, rounds);
	exit(odd > 300 ? 2 : 0);
}

// ok-exit: 2
// slice: loop:main:okexit.c:24
// run: data/poem.txt
// run: data/notes.txt
// run: data/wide.txt
