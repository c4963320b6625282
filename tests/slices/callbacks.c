/* Case 8: function pointers. argv[1] is a program of one-letter operations, each run through
 * a table of handlers; sorting and searching go through qsort and bsearch with a comparator.
 * The features count comparator calls and bsearch hits; the hashing handler is removed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct machine {
	int *vals;
	int n;
	int found;
	int rounds;
	unsigned long hash;
};

typedef void (*handler)(struct machine *);

static unsigned long long rng = 1;

static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void op_fill(struct machine *m)
{
	for (int i = 0; i < m->n; i++) {
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		m->vals[i] = (int)((rng >> 33) % 1000);
	}
}

static void op_sort(struct machine *m)
{
	qsort(m->vals, (size_t)m->n, sizeof *m->vals, by_value); // kept
}

static void op_find(struct machine *m)
{
	for (int key = 0; key < 1000; key += 7)
		if (bsearch(&key, m->vals, (size_t)m->n, sizeof *m->vals, by_value)) {
			m->found++; // removed
		}
}

static void op_hash(struct machine *m)
{
	unsigned long h = m->hash;

	for (int r = 0; r < m->rounds; r++)
		for (int i = 0; i < m->n; i++)
			h = (h ^ (unsigned long)m->vals[i]) * 0x100000001b3UL;
	m->hash = h; // removed
}

static const handler table[] = {op_fill, op_sort, op_find, op_hash};
static const char letters[] = "fsxh";

int main(int argc, char **argv)
{
	struct machine m = {NULL, 0, 0, 0, 0};

	if (argc < 5)
		return 1;
	m.n = atoi(argv[2]);
	rng = strtoull(argv[3], NULL, 10);
	m.rounds = atoi(argv[4]); // removed
	m.vals = calloc((size_t)m.n + 1, sizeof *m.vals);
	for (const char *c = argv[1]; *c; c++) {
		const char *at = strchr(letters, *c);

		if (at && *at)
			table[at - letters](&m); // kept
	}
	printf("%d %lu\n", m.found, m.hash); // removed
	free(m.vals);
	return 0;
}

// slice: call:by_value:callbacks.c:20
// slice: branch:op_find:callbacks.c:43:true
// cheap
// run: fsx 100 1 10
// run: fhsxh 1000 2 50
// run: xsf 50 3 5
// run: fqsx 300 5 5
// run: hhh 10 4 5
// run: fshxhx 5000 9 16000
