/* Case 1: a loop over the lines of a generated text with an expensive hash per line.
 * The feature is the line loop's iteration count: it needs the text (where the newlines
 * fall) but not the hashing, so the slice keeps the generator and drops slow_hash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 1;

static unsigned next_rand(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33);
}

/* A deliberately slow hash: `rounds` passes over the line. */
static unsigned long slow_hash(const char *s, size_t len, int rounds)
{
	unsigned long h = 5381;

	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < len; i++)
			h = (h * 33) ^ (unsigned char)s[i] ^ (unsigned long)r;
	return h;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 1;
	int nlines = atoi(argv[1]); // kept
	rng = strtoull(argv[2], NULL, 10); // kept
	int rounds = atoi(argv[3]); // removed
	char *text = malloc((size_t)nlines * 81 + 1);
	char *p = text, *line;
	unsigned long total = 0;
	int blank = 0;

	for (int i = 0; i < nlines; i++) {
		int len = (int)(next_rand() % 80);

		for (int k = 0; k < len; k++)
			*p++ = (char)('a' + next_rand() % 26); // kept
		*p++ = '\n'; // kept
	}
	*p = '\0';
	for (line = text; *line; line = strchr(line, '\n') + 1) {
		size_t len = strcspn(line, "\n");

		if (len == 0) {
			blank++; // removed
			continue;
		}
		total ^= slow_hash(line, len, rounds); // removed
	}
	printf("%lu %d\n", total, blank); // removed
	free(text);
	return 0;
}

// slice: loop:main:lines.c:47
// slice: branch:main:lines.c:50:true
// cheap
// run: 50 1 10
// run: 300 2 40
// run: 1 3 5
// run: 0 4 5
// run: 4000 7 1000
