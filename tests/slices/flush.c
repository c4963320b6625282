/* Case 13: compresses each file named on the command line to stdout (run-length coding, a
 * stand-in for bzip2's compressStream) and flushes stdout after each. The feature counts the
 * files compressed: it depends on which files open, not on what was written, so the coding
 * loop, its writes and the flush are all removed. Flushing or closing a stream touches no file
 * a later fopen could see (src/extmodel.c); when the model said it did, this slice kept the
 * whole coding loop, as it kept bzip2's. */
#include <stdio.h>

static int compress_stream(FILE *in, FILE *out)
{
	int c, last = EOF;
	long run = 0;

	while ((c = fgetc(in)) != EOF) { // removed
		if (c == last && run < 255) {
			run++; // removed
			continue;
		}
		if (last != EOF && fprintf(out, "%ld%c", run, last) < 0) // removed
			goto fail;
		last = c; // removed
		run = 1;
	}
	if (last != EOF && fprintf(out, "%ld%c", run, last) < 0)
		goto fail;
	if (fflush(out) == EOF) // removed
		goto fail;
	return 0;
fail:
	fprintf(stderr, "write error\n");
	return -1;
}

int main(int argc, char **argv)
{
	int failed = 0;

	for (int i = 1; i < argc; i++) {
		FILE *in = fopen(argv[i], "rb"); // kept
		if (!in) {
			failed = 1;
			continue;
		}
		if (compress_stream(in, stdout) < 0)
			failed = 1;
		fclose(in);
	}
	return failed;
}

// slice: call:compress_stream:flush.c:9
// run: data/notes.txt
// run: data/poem.txt data/empty.txt
// run: data/poem.txt data/missing.txt data/notes.txt
// status: 1
