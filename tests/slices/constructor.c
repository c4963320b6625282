/*
 * constructor.c: a function pointer set in a constructor, the way xz's liblzma picks its CRC64
 * function (crc64_set_func, an __attribute__((constructor)), stores crc64_clmul or
 * crc64_generic in the pointer every CRC is computed through). Nothing calls a constructor:
 * it runs before main. The evaluators of the whole count and of the checksum's own must run
 * it, or the pointer stays null in them and the checksums are not counted (xz's evaluator of
 * its instruction count missed 0.2% of it so, and ran only because the optimiser dropped the
 * call through the null pointer). A second constructor, of a lower priority number, runs
 * first and sets the table the first one chooses from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned (*checksum_fn)(const unsigned char *, size_t);

static checksum_fn checksum;
static checksum_fn table[2];

static unsigned sum_bytes(const unsigned char *p, size_t n)
{
	unsigned s = 0;

	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}

static unsigned fnv(const unsigned char *p, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

__attribute__((constructor(200))) static void fill_table(void)
{
	table[0] = sum_bytes; // kept
	table[1] = fnv;
}

__attribute__((constructor(300))) static void choose_checksum(void)
{
	checksum = table[getenv("MANTIS_TEST_NO_SUCH_VARIABLE") != NULL]; // kept
}

int main(int argc, char **argv)
{
	unsigned char block[256];
	unsigned total = 0;
	int blocks;

	if (argc < 2)
		return 1;
	blocks = atoi(argv[1]);
	for (int b = 0; b < blocks; b++) {
		for (int i = 0; i < 256; i++)
			block[i] = (unsigned char)(b * 31 + i * 7);
		total ^= checksum(block, sizeof block);
	}
	printf("%u\n", total);
	return 0;
}

// slice: bycount:(program):-:0:total
// slice: bycount:sum_bytes:constructor.c:20:total
// run: 10
// run: 0
// run: 300
