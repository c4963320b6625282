/* Case 18: a function's own stack slot, which no call sees another call's values in. digest()
 * works a fixed workspace array (an alloca the points-to analysis cannot split into values) and
 * is called twice: on every line of a file, then on argv[2], whose digest sets the loop's trip
 * count. The second call reads the workspace only after writing it, but writes are weak
 * updates, so unless the slot is known to be digest's own (fresh at each entry, dead at each
 * return: src/sdg.c own_classes), its reads depend on its formal-in, which at the second call
 * is what the first call left: the slice would keep the file's reading. A recursive function's
 * slots stay in its interface (walk(): each activation's slot is the same object). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned digest(const char *s)
{
	unsigned work[16], sum = 0;
	size_t n = strlen(s);

	for (int i = 0; i < 16; i++)
		work[i] = (unsigned)i;
	for (size_t i = 0; i < n; i++)
		work[i % 16] = work[i % 16] * 31 + (unsigned char)s[i];
	for (int i = 0; i < 16; i++)
		sum ^= work[i];
	return sum;
}

/* Sums depth..1 through a slot each activation hands its callee. */
static void walk(int depth, long *into)
{
	long mine = depth;

	if (depth > 0) {
		walk(depth - 1, &mine);
		*into += mine;
	} else {
		*into += 0;
	}
}

int main(int argc, char **argv)
{
	char line[256];
	unsigned lines = 0, rounds;
	long total = 0;
	FILE *f;

	if (argc < 3 || !(f = fopen(argv[1], "r")))
		return 1;
	while (fgets(line, sizeof line, f))
		lines += digest(line) & 1; // removed
	fclose(f);
	rounds = digest(argv[2]) % 50 + 10; // kept
	walk((int)(rounds % 7), &total); // kept
	for (unsigned r = 0; r < rounds + (unsigned)total; r++) {
		if (r % 3 == 0)
			lines++;
	}
	printf("%u %ld\n", lines, total);
	return 0;
}

// slice: loop:main:ownslot.c:54
// run: data/poem.txt seed
// run: data/notes.txt another-word
