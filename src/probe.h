/*
 * probe.h: what a file's content is like, read off a fixed sample of it without running any
 * program: how many bits a byte carries, how much of it repeats, how many lines it has. A
 * scheduler can read these before a run, as it reads a file's size; mantis train offers them
 * beside the sizes as free input features (descriptor.h), for programs whose work follows the
 * content (a compressor's matches, a text filter's lines); and the numbers of a small text file
 * (a script: an SQL query's row count, a simulation's steps), which set the work of programs
 * that interpret one.
 */
#ifndef MANTIS_PROBE_H
#define MANTIS_PROBE_H

enum {
	PROBE_PIECES = 16,  /* pieces read, spread evenly from the file's start to its end */
	PROBE_PIECE = 4096, /* bytes a piece */
	PROBE_SCRIPT = PROBE_PIECES * PROBE_PIECE, /* the most bytes a script has */
	PROBE_NUMBERS = 16, /* the numbers of a script read */
};

/* A file's content, as its sample shows it. */
struct probe {
	double entropy;  /* order-0 entropy of the sampled bytes, in bits per byte (0 to 8) */
	double repeats;  /* share of the sample's 4-byte strings that occur earlier in their piece */
	double newlines; /* newlines per sampled byte */
};

/*
 * Fills *pr with the probe of the file at path: PROBE_PIECES pieces of PROBE_PIECE bytes, piece
 * k at offset (size - PROBE_PIECE) * k / (PROBE_PIECES - 1), or the whole file when it is no
 * larger than the pieces together. Returns 0, or -1 with errno set when path cannot be opened
 * or read (*pr all zeros then, as for an empty file).
 */
int probe_file(const char *path, struct probe *pr);
/*
 * Returns whether the file at path is a script: a regular file of 1 to PROBE_SCRIPT bytes of
 * text (no byte below 0x20 but tab, newline, vertical tab, form feed and carriage return, nor
 * 0x7f), a program's query, its commands or its settings. When it is, fills
 * numbers[0..PROBE_NUMBERS) with its first numbers in order, zeros past the last: a number is
 * what strtod reads at a digit not preceded by a letter, a digit, '_' or '.' (so the digits of a
 * name, t2, are none), its sign not taken; the scan goes on after what strtod read. Else (or
 * when it cannot be read) numbers are all zeros. A FIFO is opened without waiting for a
 * writer, and is no script.
 */
int probe_script(const char *path, double *numbers);
#endif
