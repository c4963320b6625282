/*
 * probe.c: a file's content probe (probe.h), read with pread off PROBE_PIECES pieces of
 * PROBE_PIECE bytes: 64 KiB whatever the file's size, so probing costs about what a stat and a
 * page-cache copy of 64 KiB cost (tens of microseconds), never the file's size.
 *  - entropy: H = sum over byte values of (c/n) * log2(n/c), the order-0 entropy (Shannon) of
 *    the n sampled bytes, c a byte value's count among them. Summed over the shares c/n, so
 *    that it depends on them alone, bit for bit: one byte value is 0 exactly, not log2(n) -
 *    log2(n) rounded (+-1.8e-15 by the file's size: a column varying by rounding alone, which
 *    standardized into noise and threw a fit of tests/cli/train-input.t off).
 *  - repeats: per piece, the share of its positions i whose 4 bytes [i, i+4) occurred at an
 *    earlier position of the same piece: what an LZ77 coder (gzip's, xz's, lz4's) finds to
 *    match within a 4 KiB window, counted exactly with an open-addressing set of the piece's
 *    4-byte strings.
 *  - newlines: '\n' bytes over n.
 * A script (probe_script) is read whole, at most 64 KiB too: its numbers are strtod's reading at
 * each digit that starts a word, as a reader of an SQL query or a settings file sees them.
 * Invariant: exportc.c's input_probe_text and input_script_text compute the same numbers with
 * the same operations in the same order (an exported predictor reads the same features bit for
 * bit).
 */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	PROBE_SLOTS = 8192, /* slots of a piece's set of 4-byte strings: twice a piece's strings */
};

/* A piece's set of 4-byte strings, emptied between pieces by a new stamp. */
struct gram_set {
	uint32_t gram[PROBE_SLOTS];  /* the string in a slot, little-endian */
	uint32_t stamp[PROBE_SLOTS]; /* the piece a slot's string is of: the set's current stamp */
	uint32_t now;                /* the current piece's stamp: 1 to PROBE_PIECES */
};

/* Adds g to s; returns 1 when it was there already, 0 when it is new. */
static int gram_seen(struct gram_set *s, uint32_t g)
{
	uint32_t h = (g * 2654435761u) >> 19; /* 13 bits: PROBE_SLOTS */

	while (s->stamp[h] == s->now) {
		if (s->gram[h] == g)
			return 1;
		h = (h + 1) & (PROBE_SLOTS - 1);
	}
	s->stamp[h] = s->now;
	s->gram[h] = g;
	return 0;
}

/* Reads up to n bytes at off into buf; returns the bytes read, or -1 on an error. */
static ssize_t read_at(int fd, unsigned char *buf, size_t n, off_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int probe_file(const char *path, struct probe *pr)
{
	double count[256] = {0}, n = 0, grams = 0, repeated = 0, lines = 0, sum = 0;
	struct gram_set *set = NULL;
	unsigned char *piece = NULL;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;

	memset(pr, 0, sizeof *pr);
	if (fd < 0)
		return -1;
	set = calloc(1, sizeof *set);
	piece = malloc(PROBE_PIECE);
	if (!set || !piece || fstat(fd, &st) != 0)
		goto fail;
	for (int k = 0; k < PROBE_PIECES; k++) {
		off_t off = st.st_size <= (off_t)PROBE_PIECES * PROBE_PIECE
				    ? (off_t)k * PROBE_PIECE
				    : (st.st_size - PROBE_PIECE) * k / (PROBE_PIECES - 1);
		ssize_t got = read_at(fd, piece, PROBE_PIECE, off);

		if (got < 0)
			goto fail;
		set->now++;
		for (ssize_t i = 0; i < got; i++) {
			count[piece[i]]++;
			lines += piece[i] == '\n';
			if (i + 4 > got)
				continue;
			grams++;
			repeated += gram_seen(set, (uint32_t)piece[i] | (uint32_t)piece[i + 1] << 8 |
							(uint32_t)piece[i + 2] << 16 |
							(uint32_t)piece[i + 3] << 24);
		}
		n += (double)got;
	}
	free(set);
	free(piece);
	close(fd);
	if (n == 0)
		return 0;
	for (int b = 0; b < 256; b++)
		sum += count[b] > 0 ? count[b] / n * log2(n / count[b]) : 0;
	pr->entropy = sum;
	pr->repeats = grams > 0 ? repeated / grams : 0;
	pr->newlines = lines / n;
	return 0;
fail:
	saved = errno;
	free(set);
	free(piece);
	close(fd);
	errno = saved;
	return -1;
}

/* Returns whether byte b may be in a script: printable ASCII, any byte from 0x80 (UTF-8), tab,
 * newline, vertical tab, form feed, carriage return. */
static int script_byte(unsigned char b)
{
	return (b >= 0x20 && b != 0x7f) || (b >= '\t' && b <= '\r');
}

/* Returns whether a number may start at text[i]: a digit after no letter, digit, '_' or '.'. */
static int number_starts(const char *text, size_t i)
{
	unsigned char before = i > 0 ? (unsigned char)text[i - 1] : ' ';

	return text[i] >= '0' && text[i] <= '9' && !(before >= '0' && before <= '9') &&
	       !(before >= 'a' && before <= 'z') && !(before >= 'A' && before <= 'Z') &&
	       before != '_' && before != '.' && before < 0x80;
}

int probe_script(const char *path, double *numbers)
{
	char *text = NULL;
	struct stat st;
	ssize_t got = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), k = 0; /* a FIFO: no wait */

	memset(numbers, 0, sizeof *numbers * PROBE_NUMBERS);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 1 &&
	    st.st_size <= PROBE_SCRIPT && (text = malloc((size_t)st.st_size + 1)))
		got = read_at(fd, (unsigned char *)text, (size_t)st.st_size, 0);
	close(fd);
	if (got < 0 || got != (ssize_t)st.st_size) { /* st unset when got < 0 */
		free(text);
		return 0;
	}
	text[got] = '\0';
	for (ssize_t i = 0; i < got; i++) {
		if (!script_byte((unsigned char)text[i])) {
			free(text);
			return 0;
		}
	}
	for (size_t i = 0; i < (size_t)got && k < PROBE_NUMBERS; i++) {
		char *end;

		if (!number_starts(text, i))
			continue;
		numbers[k] = strtod(text + i, &end);
		numbers[k] = isfinite(numbers[k]) ? numbers[k] : 0; /* 1e999 */
		k++;
		i = (size_t)(end - text) - 1;
	}
	free(text);
	return 1;
}
