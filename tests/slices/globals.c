/* Case 9: globals written in one function and read in another. configure() and adjust()
 * set g_limit and g_stride, run_jobs() loops over them; warm_up() fills other globals with
 * expensive work that only the output reads. */
#include <stdio.h>
#include <stdlib.h>

static int g_limit;
static int g_stride = 1;
static unsigned long g_digest;
static unsigned g_table[256];

static void configure(const char *spec)
{
	g_limit = atoi(spec); // kept
	if (g_limit > 100000)
		g_stride = 3; // kept
}

static void adjust(int *where, int by)
{
	*where += by; // kept
}

static void warm_up(int rounds)
{
	unsigned long h = 14695981039346656037UL;

	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < 256; i++) {
			h = (h ^ (unsigned long)(i + r)) * 1099511628211UL;
			g_table[i] ^= (unsigned)(h >> 20); // removed
		}
	g_digest = h; // removed
}

static long run_jobs(void)
{
	long done = 0;

	for (int i = 0; i < g_limit; i += g_stride)
		done += g_table[i & 255]; // removed
	return done;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 1;
	configure(argv[1]); // kept
	adjust(&g_limit, atoi(argv[2])); // kept
	warm_up(atoi(argv[3])); // removed
	long done = run_jobs(); // kept
	printf("%ld %lu\n", done, g_digest); // removed
	return 0;
}

// slice: loop:run_jobs:globals.c:40
// slice: branch:configure:globals.c:15:true
// cheap
// run: 100 0 10
// run: 200000 -5 100
// run: 10 5 1
// run: 100000 5 600000
