/* Case 16: the program writes scratch files and reads them back, as the sqlite3 shell spills a
 * sort to a temporary file it opened O_RDWR: a descriptor file written, rewound and read
 * (open), a stream (tmpfile), a named temporary file reopened after close (mkstemp, unlink),
 * and a renamed file. Each feature counts data read back, so the slice keeps the writes, and
 * the evaluator must see what they wrote: its runtime (rt/sandbox.c) keeps every file it opens
 * for writing in memory, never in the file system. Before it did, an open for writing gave the
 * evaluator /dev/null and the sqlite3 shell's evaluator counted 9% fewer VDBE steps. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned next(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 16;
}

/* Writes n values through a descriptor, rewinds, and counts the multiples of 3 read back. */
static long spill_descriptor(long n, unsigned seed)
{
	unsigned values[64];
	long multiples = 0;
	ssize_t got;
	int fd = open("spill.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	for (long done = 0; done < n; done += 64) {
		int k = n - done < 64 ? (int)(n - done) : 64;
		for (int i = 0; i < k; i++)
			values[i] = next(&seed);
		if (write(fd, values, (size_t)k * sizeof *values) < 0) // kept
			break;
	}
	lseek(fd, 0, SEEK_SET);
	while ((got = read(fd, values, sizeof values)) > 0)
		for (int i = 0; i < (int)(got / (ssize_t)sizeof *values); i++)
			if (values[i] % 3 == 0)
				multiples++;
	close(fd);
	return multiples;
}

/* Prints n values to a tmpfile stream, rewinds, and counts the lines read back. */
static long spill_stream(long n, unsigned seed)
{
	FILE *f = tmpfile(); // kept
	unsigned v;
	long lines = 0;

	if (!f)
		return -1;
	for (long i = 0; i < n; i += 7)
		fprintf(f, "%u\n", next(&seed)); // kept
	rewind(f);
	while (fscanf(f, "%u", &v) == 1)
		lines++;
	fclose(f);
	return lines;
}

/* Writes n bytes to a named temporary file, closes it, reopens it by name, and counts them. */
static long spill_named(long n)
{
	char name[] = "named-XXXXXX", buf[256];
	long bytes = 0;
	ssize_t got;
	int fd = mkstemp(name); // kept

	if (fd < 0)
		return -1;
	memset(buf, 'x', sizeof buf);
	for (long i = 0; i < n; i += (long)sizeof buf)
		if (write(fd, buf, n - i < (long)sizeof buf ? (size_t)(n - i) : sizeof buf) < 0) // kept
			break;
	close(fd);
	fd = open(name, O_RDONLY);
	unlink(name);
	if (fd < 0)
		return -1;
	while ((got = read(fd, buf, sizeof buf)) > 0)
		bytes += got;
	close(fd);
	return bytes;
}

/* Writes old.tmp, renames it new.tmp; returns whether old.tmp is gone and new.tmp has it. */
static int renamed(long n)
{
	char c = 'x';
	int fd = open("old.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return 0;
	if (n % 2) {
		if (write(fd, &c, 1) < 0) // kept
			n = 0;
	}
	close(fd);
	if (rename("old.tmp", "new.tmp") != 0) // kept
		return 0;
	if ((fd = open("old.tmp", O_RDONLY)) >= 0) {
		close(fd);
		return 0;
	}
	fd = open("new.tmp", O_RDONLY);
	if (fd < 0)
		return 0;
	if (read(fd, &c, 1) == 1) {
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	unsigned seed = argc > 2 ? (unsigned)atol(argv[2]) : 1;

	printf("%ld multiples\n", spill_descriptor(n, seed));
	printf("%ld lines\n", spill_stream(n, seed));
	printf("%ld bytes\n", spill_named(n));
	printf("renamed: %d\n", renamed(n));
	return 0;
}

// slice: branch:spill_descriptor:scratch.c:41:true
// slice: loop:spill_stream:scratch.c:59
// slice: loop:spill_named:scratch.c:84
// slice: branch:renamed:scratch.c:112:true
// run: 100 7
// run: 1000 3
// run: 0 1
// run: 37 5
