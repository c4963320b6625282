/* Case 11: reads the data file argv[1] with fopen/fgets and writes out.txt in the working
 * directory. The features count the lines read and the comment lines; an evaluator writes no
 * file, so the output stream's fopen, writes and fclose are all removed. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

static void upcase(char *s)
{
	for (; *s; s++)
		*s = (char)toupper((unsigned char)*s); // removed
}

int main(int argc, char **argv)
{
	char line[256], shout[256];
	long lines = 0, comments = 0, bytes = 0;

	if (argc < 2)
		return 1;
	FILE *in = fopen(argv[1], "r"); // kept
	if (!in)
		return 1;
	FILE *out = fopen("out.txt", "w"); // removed
	while (fgets(line, sizeof line, in)) {
		lines++; // removed
		if (line[0] == '#') {
			comments++; // removed
			continue;
		}
		bytes += (long)strlen(line); // removed
		strcpy(shout, line); // removed
		upcase(shout); // removed
		if (out) {
			fputs(shout, out); // removed
		}
	}
	if (out) {
		fprintf(out, "%ld %ld %ld\n", lines, comments, bytes); // removed
		fclose(out); // removed
	}
	fclose(in);
	return 0;
}

// slice: loop:main:fileio.c:25
// slice: branch:main:fileio.c:27:true
// run: data/notes.txt
// run: data/empty.txt
// run: data/poem.txt
// run: data/missing.txt
// status: 1
