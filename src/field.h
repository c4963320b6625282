/*
 * field.h: a header field, a number at a fixed byte of an input's data file (its largest
 * file, descriptor.h) that the program reads as a value: a WAV file's channels and rate, a
 * JPEG frame's width and height. Training finds them where a first value of the program's
 * (value:...:V.first, V.vK) is, on every training input, a multiple of the number some
 * encoding gives at one offset of the file's first FIELD_BYTES; a scheduler then reads the
 * number off the file, with no evaluator and no process start (input:field(u16be@163), a free
 * input feature).
 */
#ifndef MANTIS_FIELD_H
#define MANTIS_FIELD_H

#include <stddef.h>

struct dataset;

/* How a field's bytes make its number. */
enum field_encoding {
	FIELD_U32LE,  /* 4 bytes, little-endian */
	FIELD_U32BE,  /* 4 bytes, big-endian */
	FIELD_U16LE,  /* 2 bytes, little-endian */
	FIELD_U16BE,  /* 2 bytes, big-endian */
	FIELD_U8,     /* a byte */
	FIELD_U4HI,   /* a byte's high four bits */
	FIELD_U4LO,   /* a byte's low four bits */
	FIELD_ENCODINGS
};

enum {
	FIELD_BYTES = 4096, /* the file's first bytes searched: a header */
	FIELDS_MOST = 16,   /* most fields one dataset is given */
};

/* A header field. */
struct field {
	long offset;              /* its first byte's offset in the file */
	enum field_encoding enc;  /* how its bytes make its number */
};

/* The prefix of a field's feature name, input:field(u16be@163). */
#define FIELD_PREFIX "input:field("

/* Returns f's feature name, input:field(ENC@OFFSET), owned by the caller. */
char *field_name(const struct field *f);
/* Parses a feature name into *f. Returns 0, or -1 when name is no field's. */
int field_parse(const char *name, struct field *f);
/* Returns a one-line description of f, owned by the caller. */
char *field_describe(const struct field *f);
/* Returns the bytes f's encoding reads (1, 2 or 4). */
int field_width(enum field_encoding enc);
/* Returns f's number in head[0..len) (a file's first bytes), 0 when they end before it. */
double field_decode(const struct field *f, const unsigned char *head, size_t len);
/* Returns f's number in the file at path, 0 when path is NULL, cannot be read, or ends before
 * the field. */
double field_read(const char *path, const struct field *f);
/*
 * Finds the header fields of ds's first values: for each program column named value:...V.first
 * or V.vK that varies, the field (first the copies, then the multiples; each by offset, the
 * wider encoding first) whose number u on row i (in head[i][0..len[i]), the first bytes of
 * row i's data file) gives the column's value as a*u on every row; a byte whose multiple by
 * 256 it is stands for the big-endian 16-bit word it starts (libjpeg reads a word's high byte
 * first, then adds its low one). Fills out[0..most) with the distinct fields in the order of
 * their columns; returns how many.
 */
int field_learn(const struct dataset *ds, const unsigned char *const *head, const size_t *len,
		struct field *out, int most);
#endif
