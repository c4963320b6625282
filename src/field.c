/*
 * field.c: header fields (field.h), found by matching the program's first values against the
 * numbers of the training inputs' files.
 *
 * Algorithm: for a first value c (a column over the n training rows) and each candidate field
 * (offset p in the files' first FIELD_BYTES, encoding e), u_i is e's number at p in row i's
 * file; the field matches when u differs where c does and c_k = a u_k on every row (within
 * 1e-9 of |c_k|), a = c_j / u_j. Not c = a u + b: an offset would let a wider encoding match
 * across bytes that are constant on the training files and need not be elsewhere (a text
 * file's number, 1001 to 8001, is an offset plus 1000 times the 32-bit word of its first four
 * digits while only the first varies). The field kept is the first match in the order: a copy
 * (a = 1), then a multiple (the 32-bit word two bytes before a 16-bit one whose bytes before
 * are zero is 65536 times it); each by the lower offset, then the wider encoding (a 32-bit
 * rate whose high bytes are zero on every training file is still read whole). A byte u with
 * c = 256 u is the high byte of a big-endian word (libjpeg's INPUT_2BYTES assigns the high
 * byte shifted, then adds the low one), so the field is that word.
 * Invariant: field_decode reads the bytes field_read reads, in the same way, and export-c's
 * header_field repeats it (exportc.c).
 * Cost: columns x FIELD_BYTES x FIELD_ENCODINGS candidates, most refused on their second row.
 */
#include "field.h"

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset.h"
#include "util.h"

/* The encodings' names, as a field's feature name spells them. */
static const char *const encoding_names[FIELD_ENCODINGS] = {
	"u32le", "u32be", "u16le", "u16be", "u8", "u4hi", "u4lo",
};

char *field_name(const struct field *f)
{
	return xasprintf(FIELD_PREFIX "%s@%ld)", encoding_names[f->enc], f->offset);
}

int field_parse(const char *name, struct field *f)
{
	size_t p = strlen(FIELD_PREFIX);
	const char *at;
	char *end;

	if (strncmp(name, FIELD_PREFIX, p) != 0 || !(at = strchr(name + p, '@')))
		return -1;
	for (int e = 0; e < FIELD_ENCODINGS; e++) {
		if (strlen(encoding_names[e]) != (size_t)(at - name - (long)p) ||
		    strncmp(name + p, encoding_names[e], (size_t)(at - name - (long)p)) != 0)
			continue;
		if (at[1] < '0' || at[1] > '9')
			return -1;
		f->enc = (enum field_encoding)e;
		f->offset = strtol(at + 1, &end, 10);
		return strcmp(end, ")") == 0 && f->offset >= 0 && f->offset < FIELD_BYTES ? 0 : -1;
	}
	return -1;
}

char *field_describe(const struct field *f)
{
	static const char *const what[FIELD_ENCODINGS] = {
		"little-endian 32-bit number", "big-endian 32-bit number",
		"little-endian 16-bit number", "big-endian 16-bit number", "byte",
		"high four bits of the byte", "low four bits of the byte",
	};

	return xasprintf("the %s at byte %ld of the input's largest file (a header field the "
			 "program reads as a value), 0 when the file is shorter", what[f->enc],
			 f->offset);
}

int field_width(enum field_encoding enc)
{
	return enc <= FIELD_U32BE ? 4 : enc <= FIELD_U16BE ? 2 : 1;
}

double field_decode(const struct field *f, const unsigned char *head, size_t len)
{
	const unsigned char *b = head + f->offset;
	int w = field_width(f->enc);

	if (f->offset < 0 || (size_t)f->offset + (size_t)w > len)
		return 0;
	switch (f->enc) {
	case FIELD_U32LE:
		return (double)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
				(uint32_t)b[3] << 24);
	case FIELD_U32BE:
		return (double)((uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 |
				(uint32_t)b[0] << 24);
	case FIELD_U16LE:
		return (double)(b[0] | b[1] << 8);
	case FIELD_U16BE:
		return (double)(b[1] | b[0] << 8);
	case FIELD_U8:
		return (double)b[0];
	case FIELD_U4HI:
		return (double)(b[0] >> 4);
	case FIELD_U4LO:
		return (double)(b[0] & 15);
	case FIELD_ENCODINGS:
		break;
	}
	return 0;
}

double field_read(const char *path, const struct field *f)
{
	unsigned char b[4];
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t got;

	if (fd < 0)
		return 0;
	got = pread(fd, b, (size_t)field_width(f->enc), f->offset);
	close(fd);
	if (got != field_width(f->enc))
		return 0;
	return field_decode(&(struct field){0, f->enc}, b, (size_t)got);
}

/* Returns whether name is a program's first value: value:...V.first or value:...V.vK. */
static int is_first_value(const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t k;

	if (strncmp(name, "value:", 6) != 0 || !dot)
		return 0;
	if (strcmp(dot, ".first") == 0)
		return 1;
	k = strspn(dot + 2, "0123456789");
	return dot[1] == 'v' && k > 0 && dot[2 + k] == '\0';
}

/* The rows a column is matched on. */
struct rows {
	int n;                            /* how many */
	const unsigned char *const *head; /* each row's file's first bytes */
	const size_t *len;                /* their lengths */
	size_t shortest;                  /* the least of len[0..n) */
};

/* Returns whether c[0..n) is a*u, u field f's number on each row, with *a set; other is a
 * row whose c differs from row 0's. */
static int matches(const struct rows *r, const double *c, int other, const struct field *f,
		   double *a)
{
	double u0 = field_decode(f, r->head[0], r->len[0]);
	double u1 = field_decode(f, r->head[other], r->len[other]);

	if (u0 == u1)
		return 0;
	*a = u1 != 0 ? c[other] / u1 : c[0] / u0;
	for (int i = 0; i < r->n; i++) {
		double u = field_decode(f, r->head[i], r->len[i]);

		if (fabs(*a * u - c[i]) > 1e-9 * (1 + fabs(c[i])))
			return 0;
	}
	return 1;
}

/* Finds column c's field into *best (field_learn's order). Returns 0, or -1 when none
 * matches. */
static int column_field(const struct rows *r, const double *c, struct field *best)
{
	int other = 1, best_rank = 2; /* 0: a copy found, 1: a multiple, 2: none */

	while (other < r->n && c[other] == c[0])
		other++;
	if (other == r->n)
		return -1;
	for (long p = 0; p < (long)r->shortest && best_rank > 0; p++) {
		for (int e = 0; e < FIELD_ENCODINGS && best_rank > 0; e++) {
			struct field f = {p, (enum field_encoding)e};
			double a;

			if ((size_t)p + (size_t)field_width(f.enc) > r->shortest ||
			    !matches(r, c, other, &f, &a))
				continue;
			if (f.enc == FIELD_U8 && a == 256 &&
			    (size_t)p + 2 <= r->shortest) {
				f.enc = FIELD_U16BE;
				a = 1;
			}
			if ((a != 1) < best_rank) {
				*best = f;
				best_rank = a != 1;
			}
		}
	}
	return best_rank < 2 ? 0 : -1;
}

/* Returns whether field f is among out[0..n). */
static int known(const struct field *out, int n, const struct field *f)
{
	for (int i = 0; i < n; i++) {
		if (out[i].offset == f->offset && out[i].enc == f->enc)
			return 1;
	}
	return 0;
}

int field_learn(const struct dataset *ds, const unsigned char *const *head, const size_t *len,
		struct field *out, int most)
{
	struct rows r = {ds->n, head, len, FIELD_BYTES};
	int found = 0;

	if (ds->n < 2)
		return 0;
	for (int i = 0; i < ds->n; i++)
		r.shortest = len[i] < r.shortest ? len[i] : r.shortest;
	for (int j = 0; j < ds->p && found < most; j++) {
		struct field f;

		if (is_first_value(ds->names[j]) &&
		    column_field(&r, ds->x + (size_t)j * (size_t)ds->n, &f) == 0 &&
		    !known(out, found, &f))
			out[found++] = f;
	}
	return found;
}
